import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { VpnAccount } from '../shared/accounts.js';
import type { PublicConfig } from '../shared/config.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { createStandInBridge, INSECURE_SERVER_MESSAGE } from './desktop-bridge.js';
import { expect, postJson, signInOverApi, test, uniqueEmail, type Site } from './site.js';

/**
 * The desktop app's renderer, as built (`out/renderer/index.html`, loaded from file:// like Electron
 * does), with a stand-in for the preload's bridge that talks to the real server the way the main
 * process does. Build it first: `npm run build:desktop`.
 */
const RENDERER_HTML = fileURLToPath(new URL('../out/renderer/index.html', import.meta.url));

/** The admin adds a server on the fake panel and a free trial plan; returns the plan's id. */
async function setUpShop(site: Site, panel: FakeMarzneshin): Promise<string> {
  const admin = await signInOverApi(site, 'admin@example.com');
  const tag = Date.now();
  const server = await postJson(
    site,
    '/api/admin/servers',
    {
      kind: 'marzneshin',
      name: `Desktop ${tag}`,
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'all',
    },
    admin,
  );
  expect(server.status).toBe(201);
  const plan = await postJson(site, '/api/admin/plans', { name: `Trial ${tag}`, days: 1, dataLimitBytes: 1024 ** 3, price: 0, isTrial: true }, admin);
  expect(plan.status).toBe(201);
  return ((await plan.json()) as { id: string }).id;
}

test.beforeAll(() => {
  if (!existsSync(RENDERER_HTML)) throw new Error(`${RENDERER_HTML} is missing: run npm run build:desktop first`);
});

test('the desktop renderer signs in through the bridge, lists the accounts and hands the link to the detected VPN client', async ({
  page,
  site,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    const planId = await setUpShop(site, panel);
    const { brandName } = (await (await fetch(`${site.baseURL}/api/config`)).json()) as PublicConfig;
    const bridge = createStandInBridge({ serverUrl: site.baseURL, clients: ['hiddify', 'sing-box'] });
    await bridge.install(page);
    await page.goto(pathToFileURL(RENDERER_HTML).href);

    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /connect-src 'none'/);
    await expect(page.getByRole('heading', { name: `Sign in to ${brandName}` })).toBeVisible();

    // Sign in with the e-mailed code: verify goes through the bridge, which keeps the tokens.
    const email = uniqueEmail('desktop');
    await page.getByLabel('Email address').fill(email);
    const sentBefore = site.smtp.messages.length;
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await page.getByLabel('Verification code').fill(await site.smtp.latestCode(email)); // it submits itself
    await expect(page.getByRole('heading', { name: 'My VPN Accounts' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(email);
    await expect(page.getByText('You have no VPN accounts yet.')).toBeVisible();
    const verify = bridge.requests.find(({ call }) => call.path === '/api/auth/verify');
    expect(Object.keys(JSON.parse(verify!.response.body) as object)).toEqual(['user']);
    expect(bridge.accessToken).toBeTruthy();

    // Buying happens on the website; back in the app, the new account shows up on focus.
    await page.getByRole('button', { name: 'Get a plan' }).click();
    await expect.poll(() => bridge.externalUrls).toEqual([`${site.baseURL}/dashboard`]);
    const claimed = await postJson(site, '/api/accounts', { planId }, bridge.accessToken!);
    expect(claimed.status).toBe(201);
    const account = (await claimed.json()) as VpnAccount;
    expect(account.combinedUrl).toMatch(new RegExp(`^${site.baseURL}/sub/[\\w-]{20,}$`));
    await bridge.emitFocus(page);
    await expect(page.getByRole('rowheader', { name: new RegExp(`^${account.username}`) })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy or renew' })).toBeVisible();

    // A restarted app resumes the session from the keychain's refresh token.
    bridge.forgetAccessToken();
    await page.reload();
    await expect(page.getByRole('rowheader', { name: new RegExp(`^${account.username}`) })).toBeVisible();

    // The setup dialog offers the installed clients only, and hands each its own link through the bridge.
    await page.getByRole('button', { name: `Setup ${account.username}` }).click();
    const dialog = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
    await expect(dialog.getByRole('img', { name: /QR/ })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Open in / })).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Open in Hiddify' }).click();
    await expect.poll(() => bridge.deepLinks).toEqual([`hiddify://import/${account.combinedUrl}#${encodeURIComponent(brandName)}`]);
    await dialog.getByRole('button', { name: 'Open in sing-box' }).click();
    await expect
      .poll(() => bridge.deepLinks.at(-1))
      .toBe(`sing-box://import-remote-profile?url=${encodeURIComponent(`${account.combinedUrl}/sing-box`)}#${encodeURIComponent(brandName)}`);
    const hrefs = await page.locator('body [href]').evaluateAll((elements) => elements.map((element) => element.getAttribute('href') ?? ''));
    expect(hrefs.filter((href) => !/^(https?:|#)/.test(href))).toEqual([]);
    await expect(page.locator('[href^="hiddify:"]')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // No client found: copy, QR and the website's download page.
    bridge.clients = [];
    await page.getByRole('button', { name: `Setup ${account.username}` }).click();
    await expect(dialog.getByText('No VPN app was found on this computer.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Open in / })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible();
    await dialog.getByRole('link', { name: 'Download the app for Linux' }).click();
    await expect.poll(() => bridge.externalUrls.at(-1)).toBe(`${site.baseURL}/download/linux`);
    await dialog.getByRole('button', { name: 'Show video guide' }).click();
    await dialog.getByRole('link', { name: 'Help Center' }).click();
    await expect.poll(() => bridge.externalUrls.at(-1)).toBe(`${site.baseURL}/help`);
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');

    // Settings: the main process refuses plain http for anything but this machine.
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('main')).toContainText(site.baseURL);
    await page.getByLabel('Server address').fill('http://example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText(INSECURE_SERVER_MESSAGE);
    expect(bridge.serverUrlRequests).toEqual(['http://example.com']);
    expect(bridge.serverUrl).toBe(site.baseURL);

    // An update downloaded in the background: the app offers to restart into it, and only restarts when asked.
    await expect(page.getByTestId('update-banner')).toHaveCount(0);
    await bridge.emitUpdateReady(page, '1.3.0');
    await expect(page.getByRole('status').filter({ hasText: 'Version 1.3.0 of the app has been downloaded.' })).toBeVisible();
    expect(bridge.restarts).toBe(0);
    await page.getByRole('button', { name: 'Restart to update' }).click();
    await expect.poll(() => bridge.restarts).toBe(1);

    // Sign out ends the session on the server.
    const token = bridge.accessToken!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: `Sign in to ${brandName}` })).toBeVisible();
    expect(bridge.accessToken).toBeNull();
    expect((await fetch(`${site.baseURL}/api/accounts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);

    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test("a new customer types a friend's referral link at the desktop sign-in: the sign-up is the friend's", async ({ page, site, consoleErrors }) => {
  test.setTimeout(60_000);
  const call = async (method: string, path: string, token: string, body?: object) =>
    fetch(site.baseURL + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const adminEmail = uniqueEmail('desktop-referral-admin');
  const admin = await signInOverApi(site, adminEmail);
  await site.database.db('user_profiles').where({ email: adminEmail }).update({ role: 'owner' });
  const programme = { enabled: true, referredBenefit: { kind: 'none' }, reward: { kind: 'percent', percent: 20, months: 3 }, refundWindowDays: 14 };
  expect((await call('PUT', '/api/admin/referrals/settings', admin, programme)).status).toBe(200);
  const friend = await signInOverApi(site, uniqueEmail('desktop-referrer'));
  const { link } = (await (await call('GET', '/api/referrals/me', friend)).json()) as { link: string };

  const bridge = createStandInBridge({ serverUrl: site.baseURL, clients: ['hiddify'] });
  await bridge.install(page);
  await page.goto(pathToFileURL(RENDERER_HTML).href);
  const email = uniqueEmail('desktop-referred');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Invited by a friend? Their code (optional)').fill(` ${link} `);
  const sentBefore = site.smtp.messages.length;
  await page.getByRole('button', { name: 'Instant Access' }).click();
  await site.smtp.waitFor(email, { after: sentBefore });
  await page.getByLabel('Verification code').fill(await site.smtp.latestCode(email));
  await expect(page.getByRole('heading', { name: 'My VPN Accounts' })).toBeVisible();
  const verify = bridge.requests.find(({ call: sent }) => sent.path === '/api/auth/verify');
  expect(verify!.call.body).toMatchObject({ email, referralCode: link.split('/r/')[1] });
  expect(((await (await call('GET', '/api/referrals/me', friend)).json()) as { signedUp: number }).signedUp).toBe(1);
  expect(consoleErrors).toEqual([]);
});

test('a plan paid from the balance is set to auto-renew from it in the desktop app', async ({ page, site, consoleErrors }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    const adminEmail = uniqueEmail('desktop-wallet-admin');
    const admin = await signInOverApi(site, adminEmail);
    await site.database.db('user_profiles').where({ email: adminEmail }).update({ role: 'owner' });
    const planName = `Desktop wallet ${Date.now()}`;
    const server = await postJson(
      site,
      '/api/admin/servers',
      {
        kind: 'marzneshin',
        name: `Panel for ${planName}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      admin,
    );
    expect(server.status).toBe(201);
    const plan = await postJson(site, '/api/admin/plans', { name: planName, days: 30, dataLimitBytes: 1024 ** 3, price: 499, locations: 'all' }, admin);
    expect(plan.status).toBe(201);
    const planId = ((await plan.json()) as { id: string }).id;

    const bridge = createStandInBridge({ serverUrl: site.baseURL, clients: ['hiddify'] });
    await bridge.install(page);
    await page.goto(pathToFileURL(RENDERER_HTML).href);
    const email = uniqueEmail('desktop-wallet');
    await page.getByLabel('Email address').fill(email);
    const sentBefore = site.smtp.messages.length;
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await page.getByLabel('Verification code').fill(await site.smtp.latestCode(email));
    await expect(page.getByRole('heading', { name: 'My VPN Accounts' })).toBeVisible();

    // Support credits the balance; the plan is bought from it (on the website, here over the API).
    const userId = (await site.database.db('user_profiles').where({ email }).first()).id as string;
    expect((await postJson(site, `/api/admin/users/${userId}/wallet`, { amount: 1000, note: 'Welcome' }, admin)).status).toBe(200);
    expect((await postJson(site, '/api/checkout', { planId, method: 'wallet' }, bridge.accessToken!)).status).toBe(200);
    const accounts = async () =>
      (await (await fetch(`${site.baseURL}/api/accounts`, { headers: { authorization: `Bearer ${bridge.accessToken}` } })).json()) as VpnAccount[];
    await expect.poll(async () => (await accounts()).map(({ status }) => status), { timeout: 15_000 }).toEqual(['active']);
    await bridge.emitFocus(page);

    const row = page.getByRole('row').filter({ hasText: planName });
    const autoRenew = row.getByRole('button', { name: /Auto-renew from balance/ });
    await expect(autoRenew).toHaveAttribute('aria-pressed', 'false');
    await autoRenew.click();
    await expect(page.getByText('This account will renew from your balance a day before it ends.')).toBeVisible();
    await expect(autoRenew).toHaveAttribute('aria-pressed', 'true');
    await expect(row).toContainText(/Renews from your balance on /);
    expect(bridge.requests.some(({ call }) => call.method === 'POST' && /^\/api\/accounts\/[^/]+\/auto-renew$/.test(call.path))).toBe(true);

    await autoRenew.click();
    await expect(page.getByText('Auto-renew from your balance is off.')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});
