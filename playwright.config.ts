import { defineConfig, devices } from '@playwright/test';
import type { TestDatabaseKind } from './server/test/databases.js';

/** Debian's Chromium (apt-get install chromium); Playwright cannot download its own browser here. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const launchOptions = {
  executablePath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * The operator's side (admin tabs, provider set-up, desktop downloads) and the long billing runs: the desktop project runs them;
 * their 390 px checks set the viewport themselves (mobile-layout.spec.ts walks every admin tab and dialog on the phone), and the
 * server suite runs their logic on PostgreSQL, so the phone project keeps to what customers do on a phone.
 */
const DESKTOP_ONLY_SPECS =
  /(admin-[\w-]+|app-headers|panel-import|site-content|store-currency|subscription-domains|gift-codes|plan-locations|download-desktop-app|crypto-payments|local-payments|subscriptions|telegram|staff-roles)\.spec\.ts$/;
/** The desktop app's renderer specs: they run in the desktop-app project only. */
const DESKTOP_APP_SPECS = /desktop-renderer\.spec\.ts$/;
/** The packaged app (Electron itself, through `_electron`): skipped unless ELECTRON_PATH names it (the release workflow). */
const PACKAGED_APP_SPECS = /desktop-packaged\.spec\.ts$/;
/** What the Electron window on Linux reports (the renderer picks the setup tab from it). */
const ELECTRON_LINUX_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) vpn-storefront/0.1.0 Chrome/146.0.0.0 Electron/41.7.1 Safari/537.36';

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
  // desktop-app loads the desktop app's built renderer from file:// (as Electron does) with a stand-in bridge.
  projects: [
    {
      name: 'desktop',
      testIgnore: [DESKTOP_APP_SPECS, PACKAGED_APP_SPECS],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions, databaseKind: 'sqlite' },
    },
    {
      name: 'phone',
      testIgnore: [DESKTOP_APP_SPECS, PACKAGED_APP_SPECS, DESKTOP_ONLY_SPECS],
      use: { ...devices['Pixel 7'], launchOptions, databaseKind: process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite' },
    },
    {
      name: 'desktop-app',
      testMatch: DESKTOP_APP_SPECS,
      use: {
        viewport: { width: 1100, height: 760 },
        userAgent: ELECTRON_LINUX_USER_AGENT,
        launchOptions: { ...launchOptions, args: [...launchOptions.args, '--allow-file-access-from-files'] },
        databaseKind: 'sqlite',
      },
    },
    { name: 'packaged-app', testMatch: PACKAGED_APP_SPECS, use: { databaseKind: 'sqlite' } },
  ],
});
