import { defineConfig, devices } from '@playwright/test';
import type { TestDatabaseKind } from './server/test/databases.js';

/** Debian's Chromium (apt-get install chromium); Playwright cannot download its own browser here. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const launchOptions = {
  executablePath,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
};

export default defineConfig<object, { databaseKind: TestDatabaseKind }>({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: { launchOptions, trace: 'off' },
  // Desktop runs against SQLite; phone against PostgreSQL when TEST_DATABASE_URL is set (else SQLite).
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions, databaseKind: 'sqlite' } },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions, databaseKind: process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite' } },
  ],
});
