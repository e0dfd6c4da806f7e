import { defineConfig } from 'vitest/config';

const jsonOutput = process.env.VITEST_JSON_OUTPUT;

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'desktop/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: jsonOutput ? ['default', 'json'] : ['default'],
    outputFile: jsonOutput ? { json: jsonOutput } : undefined,
  },
});
