import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import type { VpnAccount } from '../shared/accounts.js';
import type { PublicConfig } from '../shared/config.js';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { loadBrand } from '../desktop/brand.js';
import { expect, postJson, signInOverApi, test, uniqueEmail } from './site.js';

/**
 * The packaged desktop app (what electron-builder made, started as a user starts it), against a real server
 * started in the same job: run by .github/workflows/desktop-release.yml on Windows, macOS and Linux (under
 * Xvfb, with a Secret Service) with ELECTRON_PATH naming the packaged binary (scripts/packaged-app-path.ts
 * finds it). No Electron binary can be downloaded where the rest of the suite runs, so there it is skipped.
 */
const ELECTRON_PATH = process.env.ELECTRON_PATH;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

test.skip(
  !ELECTRON_PATH,
  'No packaged desktop app here (no Electron binary can be downloaded on this machine): the release workflow runs this with ELECTRON_PATH set',
);

/** The app with its data in `home` (a fresh profile), and the OS launcher and client lookup stubbed in its main process. */
async function launch(home: string): Promise<{ app: ElectronApplication; window: Page }> {
  const app = await electron.launch({
    executablePath: ELECTRON_PATH!,
    env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), APPDATA: join(home, 'appdata'), ELECTRON_ENABLE_LOGGING: '1' },
  });
  await app.evaluate(({ app: electronApp, shell }) => {
    const opened: string[] = [];
    (globalThis as unknown as { __opened: string[] }).__opened = opened;
    // The OS launcher: what the app hands over is recorded, nothing is started.
    shell.openExternal = async (url: string) => {
      opened.push(url);
    };
    // Hiddify "installed": its scheme has a handler.
    electronApp.getApplicationNameForProtocol = (url: string) => (url.startsWith('hiddify:') ? 'Hiddify' : '');
  });
  const window = await app.firstWindow();
  await window.waitForLoadState('domcontentloaded');
  return { app, window };
}

const openedUrls = (app: ElectronApplication) => app.evaluate(() => [...(globalThis as unknown as { __opened: string[] }).__opened]);

test('the packaged app signs in by a code, keeps the session in the OS keychain across a restart and hands the exact deep link to the VPN client', async ({
  site,
}) => {
  test.setTimeout(180_000);
  const brand = loadBrand(ROOT);
  const panel = await startFakeMarzneshin();
  const home = mkdtempSync(join(tmpdir(), 'packaged-app-'));
  const email = uniqueEmail('packaged');
  try {
    // The shop: a server on the fake panel and a free trial plan; the customer's trial account.
    const admin = await signInOverApi(site, 'admin@example.com');
    const server = await postJson(
      site,
      '/api/admin/servers',
      {
        kind: 'marzneshin',
        name: 'Packaged app',
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      admin,
    );
    expect(server.status).toBe(201);
    const plan = await postJson(site, '/api/admin/plans', { name: 'Trial', days: 1, dataLimitBytes: 1024 ** 3, price: 0, isTrial: true }, admin);
    expect(plan.status).toBe(201);
    const claimed = await postJson(site, '/api/accounts', { planId: ((await plan.json()) as { id: string }).id }, await signInOverApi(site, email));
    expect(claimed.status).toBe(201);
    const account = (await claimed.json()) as VpnAccount;
    const { brandName } = (await (await fetch(`${site.baseURL}/api/config`)).json()) as PublicConfig;

    let { app, window } = await launch(home);
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getName())).toBe(brand.productName);

    // The server this job started, chosen in Settings as a user would (the build's default is the brand's).
    await window.getByRole('link', { name: 'Settings' }).click();
    await window.getByLabel('Server address').fill(site.baseURL);
    await window.getByRole('button', { name: 'Save' }).click();
    await expect(window.getByRole('heading', { name: `Sign in to ${brandName}` })).toBeVisible({ timeout: 20_000 });

    // Sign in by the code caught over SMTP.
    await window.getByLabel('Email address').fill(email);
    const sentBefore = site.smtp.messages.length;
    await window.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await window.getByLabel('Verification code').fill(await site.smtp.latestCode(email));
    await expect(window.getByRole('rowheader', { name: new RegExp(`^${account.username}`) })).toBeVisible();

    // The refresh token is in the OS keychain, under the brand's service.
    const { Entry } = await import('@napi-rs/keyring');
    expect(new Entry(brand.keychainService, `${site.baseURL} ${email}`).getPassword()).toBeTruthy();

    // A restarted app resumes the session from the keychain.
    await app.close();
    ({ app, window } = await launch(home));
    await expect(window.getByRole('rowheader', { name: new RegExp(`^${account.username}`) })).toBeVisible({ timeout: 20_000 });

    // "Open in Hiddify" hands the OS exactly the client's deep link.
    await window.getByRole('button', { name: `Setup ${account.username}` }).click();
    const dialog = window.getByRole('dialog', { name: /Your VPN Account is Ready/ });
    await dialog.getByRole('button', { name: 'Open in Hiddify' }).click();
    await expect.poll(() => openedUrls(app)).toEqual([`hiddify://import/${account.combinedUrl}#${encodeURIComponent(brandName)}`]);

    // Sign out removes it from the keychain.
    await window.keyboard.press('Escape');
    await window.getByRole('button', { name: 'Sign out' }).click();
    await expect(window.getByRole('heading', { name: `Sign in to ${brandName}` })).toBeVisible();
    expect(new Entry(brand.keychainService, `${site.baseURL} ${email}`).getPassword()).toBeFalsy();
    await app.close();
  } finally {
    await panel.close();
    rmSync(home, { recursive: true, force: true });
  }
});
