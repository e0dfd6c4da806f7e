import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { appBrandOf, loadBrand } from './desktop/brand.js';
import { catalogs } from './web/vite-plugin-catalogs.js';

const jsonOutput = process.env.VITEST_JSON_OUTPUT;

export default defineConfig({
  // Web code under test reads the message catalogues through `virtual:catalogs`.
  plugins: [catalogs()],
  // The desktop main process reads its brand as the build inlines it (electron.vite.config.ts).
  define: { __DESKTOP_BRAND__: JSON.stringify(appBrandOf(loadBrand(fileURLToPath(new URL('.', import.meta.url))))) },
  test: {
    include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'desktop/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/test/global-setup.ts'],
    // One test file per core at a time. vitest's default (cores − 1) runs the files one by one on a 2-core machine,
    // where most of the suite's time is spent waiting on servers, SMTP and PostgreSQL: 925 s against 530 s.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: jsonOutput ? ['default', 'json'] : ['default'],
    outputFile: jsonOutput ? { json: jsonOutput } : undefined,
  },
});
