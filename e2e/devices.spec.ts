import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { runAdminCommand } from '../server/src/cli/admin.js';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, test, uniqueEmail, waitForHydration, type Site } from './site.js';

/**
 * Device limits (issue 24): the admin sets a plan's limit in the plan form and the pricing card says
 * so; a customer sees the VPN apps that fetched an account's subscription (by their `x-hwid`) and
 * removes one; the admin does the same on the customer's page and sets what apps without a device id get.
 */

const GB = 1024 ** 3;
const UNLIMITED_LINE = 'Unlimited devices on one subscription link';

/** A fresh admin (made one as `npm run admin -- grant` does), signed in in a context of its own: one address signs in once a minute. */
async function signInNewAdmin(browser: Browser, site: Site): Promise<Page> {
  const email = uniqueEmail('admin-devices');
  await runAdminCommand(site.services, ['grant', email]);
  const context = await browser.newContext({ baseURL: site.baseURL });
  const page = await context.newPage();
  await signIn(page, site, email);
  return page;
}

/** The admin API, as the signed-in admin page (the origin header is what a browser sends). */
function adminApi(page: Page, site: Site) {
  const headers = { origin: site.baseURL };
  return {
    post: (url: string, data: object) => page.request.post(url, { data, headers }),
    patch: (url: string, data: object) => page.request.patch(url, { data, headers }),
    put: (url: string, data: object) => page.request.put(url, { data, headers }),
    delete: (url: string) => page.request.delete(url, { headers }),
  };
}

/** As the admin: the fake panel as a server, and a hidden free plan of 30 days and 10 GB with `deviceLimit`; the plan's id. */
async function addFreePlan(
  api: ReturnType<typeof adminApi>,
  panel: { url: string; admin: { username: string; password: string } },
  name: string,
  deviceLimit: number,
): Promise<string> {
  const server = await api.post('/api/admin/servers', {
    kind: 'marzneshin',
    name: `Panel for ${name}`,
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
  });
  expect(server.status()).toBe(201);
  const created = await api.post('/api/admin/plans', { name, days: 30, dataLimitBytes: 10 * GB, price: 0, public: false, deviceLimit });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** A VPN app updating the subscription, with the device headers Happ sends. */
async function fetchAsApp(request: APIRequestContext, url: string, device: { hwid: string; os: string; version: string; model: string }) {
  const res = await request.get(url, {
    headers: { 'user-agent': 'Happ/3.2.1', 'x-hwid': device.hwid, 'x-device-os': device.os, 'x-ver-os': device.version, 'x-device-model': device.model },
  });
  expect(res.status()).toBe(200);
}

test("the admin sets a plan's device limit to 2: the pricing card says 'Up to 2 devices' and no longer promises unlimited devices", async ({
  page,
  site,
  browser,
}) => {
  const admin = await signInNewAdmin(browser, site);
  const api = adminApi(admin, site);
  const tag = `${Date.now()}`;
  const tier = `Duo ${tag}`;
  const created = await api.post('/api/admin/plans', {
    name: `Duo Monthly ${tag}`,
    days: 30,
    dataLimitBytes: 100 * GB,
    price: 999,
    tier,
    billing: 'one_off',
    public: true,
    sortOrder: 99_000,
    features: ['100 GB of data every month', UNLIMITED_LINE, 'Servers in every location'],
  });
  expect(created.status()).toBe(201);
  const plan = (await created.json()) as { id: string; name: string; deviceLimit: number | null };
  expect(plan.deviceLimit).toBeNull();
  try {
    const monthlyCard = async () => {
      await page.goto('/pricing');
      await waitForHydration(page);
      await page.getByRole('group', { name: 'Billing period' }).getByRole('button', { name: '1 month' }).click();
      return page.getByRole('article', { name: tier, exact: true });
    };
    // Without a limit the plan's own lines show as written.
    await expect((await monthlyCard()).getByText(UNLIMITED_LINE)).toBeVisible();

    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Plans' }).click();
    const row = admin.getByRole('row').filter({ has: admin.getByRole('cell', { name: plan.name, exact: true }) });
    const devicesCell = row.getByRole('cell').nth(4);
    await expect(devicesCell).toHaveText('Unlimited');
    await row.getByRole('button', { name: `Edit ${plan.name}` }).click();
    const form = admin.getByRole('dialog');
    const limit = form.getByLabel('Device limit');
    await expect(limit).toHaveValue('');
    // Out of range: the form says what the shared schema says, and nothing is sent.
    await limit.fill('0');
    await expect(form.getByText('Device limit: at least 1 (leave it empty for unlimited)')).toBeVisible();
    await limit.fill('2');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(admin.getByText('Plan updated successfully')).toBeVisible();
    await expect(devicesCell).toHaveText('2');
    expect((await (await admin.request.get('/api/admin/plans')).json()).find((saved: { id: string }) => saved.id === plan.id)).toMatchObject({
      deviceLimit: 2,
    });

    const card = await monthlyCard();
    await expect(card.getByText('Up to 2 devices', { exact: true })).toBeVisible();
    await expect(card.getByText(/unlimited devices/i)).toHaveCount(0);
    // The operator's other lines stay, in their order around the limit.
    await expect(card.getByRole('listitem')).toHaveText(['100 GB of data every month', 'Up to 2 devices', 'Servers in every location']);
  } finally {
    await api.delete(`/api/admin/plans/${plan.id}`);
    await admin.context().close();
  }
});

test("a customer's dashboard lists the apps that fetched an account's subscription, and Remove removes one; the admin sees and removes them on the customer's page", async ({
  page,
  site,
  browser,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const admin = await signInNewAdmin(browser, site);
  const api = adminApi(admin, site);
  const tag = `${Date.now()}`;
  let planId: string | undefined;
  try {
    const planName = `Family ${tag}`;
    planId = await addFreePlan(api, panel, planName, 3);

    // The customer takes the free plan on the dashboard.
    const email = uniqueEmail('devices');
    await signIn(page, site, email);
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: planName, exact: true }) })
      .getByRole('button', { name: 'Get Free' })
      .click();
    await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible();
    await page.keyboard.press('Escape');
    const [account] = (await (await page.request.get('/api/accounts')).json()) as Array<{
      id: string;
      username: string;
      combinedUrl: string;
      deviceLimit: number | null;
    }>;
    expect(account).toMatchObject({ deviceLimit: 3 });
    const who = account!.username;

    // Before any app has fetched the link: 0 of 3, and what will appear here.
    const devicesButton = page.getByRole('button', { name: `Devices ${who}` });
    await expect(devicesButton).toContainText('0 of 3');
    await devicesButton.click();
    let dialog = page.getByRole('dialog', { name: `Devices of ${who}` });
    await expect(dialog.getByText(/No devices yet\. Apps that send a device id \(Happ, v2RayTun, INCY…\)/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    // Two phones update the subscription.
    await fetchAsApp(page.request, account!.combinedUrl, { hwid: `pixel-${tag}`, os: 'Android', version: '14', model: 'Pixel 8' });
    await fetchAsApp(page.request, account!.combinedUrl, { hwid: `iphone-${tag}`, os: 'iOS', version: '17.5', model: 'iPhone 15' });

    await page.reload();
    await expect(devicesButton).toContainText('2 of 3');
    await devicesButton.click();
    dialog = page.getByRole('dialog', { name: `Devices of ${who}` });
    await expect(dialog.getByText('2 of 3 devices in use')).toBeVisible();
    const devices = dialog.getByRole('listitem');
    await expect(devices).toHaveCount(2);
    await expect(devices.first()).toContainText('Pixel 8');
    await expect(devices.first()).toContainText('Android 14');
    await expect(devices.first()).toContainText('Happ/3.2.1');
    await expect(devices.nth(1)).toContainText('iOS 17.5');

    await dialog.getByRole('button', { name: 'Remove iPhone 15 · iOS 17.5 · Happ/3.2.1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this device?' });
    await expect(confirm).toContainText('iPhone 15');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Device removed')).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveCount(1);
    await expect(dialog.getByText('1 of 3 devices in use')).toBeVisible();
    await expect(dialog).not.toContainText('iPhone 15');
    await page.keyboard.press('Escape');
    await expect(devicesButton).toContainText('1 of 3');
    const left = (await (await page.request.get(`/api/accounts/${account!.id}/devices`)).json()) as { devices: Array<{ model: string }> };
    expect(left.devices.map((device) => device.model)).toEqual(['Pixel 8']);

    // The admin's page of this customer: the same list, and Remove there too.
    const users = (await (await admin.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`)).json()) as Array<{ id: string }>;
    await admin.goto(`/admin/users/${users[0]!.id}`);
    const adminButton = admin.getByRole('button', { name: `Devices ${who}` });
    await expect(adminButton).toContainText('1 of 3');
    await adminButton.click();
    const adminDialog = admin.getByRole('dialog', { name: `Devices of ${who}` });
    await expect(adminDialog.getByRole('listitem')).toHaveCount(1);
    await adminDialog.getByRole('button', { name: /^Remove Pixel 8/ }).click();
    await admin.getByRole('dialog', { name: 'Remove this device?' }).getByRole('button', { name: 'Remove' }).click();
    // The toast (the page's audit table below now names 'Device removed by the customer' too).
    await expect(admin.getByText('Success: Device removed')).toBeVisible();
    await expect(adminDialog.getByText(/No devices yet/)).toBeVisible();
    expect(((await (await page.request.get(`/api/accounts/${account!.id}/devices`)).json()) as { devices: unknown[] }).devices).toEqual([]);
  } finally {
    if (planId) await api.patch(`/api/admin/plans/${planId}`, { status: 'disabled' });
    await admin.context().close();
    await panel.close();
  }
});

test('the admin sets what apps without a device id get, in Settings', async ({ site, browser }) => {
  const admin = await signInNewAdmin(browser, site);
  try {
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Settings' }).click();
    await admin.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    const policy = admin.getByLabel('Apps that send no device id');
    await expect(policy).toHaveValue('allow');
    await expect(admin.getByText('They get the servers as usual and do not count as a device (the default).')).toBeVisible();
    await policy.selectOption('refuse');
    await expect(admin.getByText('On an account with a device limit they get a placeholder entry instead of the servers.')).toBeVisible();
    await admin.getByRole('button', { name: 'Save device settings' }).click();
    await expect(admin.getByText('Device settings updated')).toBeVisible();
    expect(await (await admin.request.get('/api/admin/settings')).json()).toMatchObject({ devicelessClients: 'refuse' });
    await admin.reload();
    await admin.getByRole('tab', { name: 'Settings' }).click();
    await admin.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    await expect(admin.getByLabel('Apps that send no device id')).toHaveValue('refuse');
  } finally {
    await adminApi(admin, site).put('/api/admin/settings', { devicelessClients: 'allow' });
    await admin.context().close();
  }
});

test('with apps without an id counted, a third v2rayNG from another address gets the placeholder; removing one on the dashboard frees its slot', async ({
  page,
  site,
  browser,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const admin = await signInNewAdmin(browser, site);
  const api = adminApi(admin, site);
  const tag = `${Date.now()}`;
  let planId: string | undefined;
  try {
    // The admin counts apps without an id, in Settings.
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Settings' }).click();
    await admin.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    await admin.getByLabel('Apps that send no device id').selectOption('count');
    await expect(admin.getByLabel('Keep its place for (hours)')).toHaveValue('24');
    await admin.getByRole('button', { name: 'Save device settings' }).click();
    await expect(admin.getByText('Device settings updated')).toBeVisible();

    const planName = `Pair ${tag}`;
    planId = await addFreePlan(api, panel, planName, 2);

    await signIn(page, site, uniqueEmail('counted'));
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: planName, exact: true }) })
      .getByRole('button', { name: 'Get Free' })
      .click();
    await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible();
    await page.keyboard.press('Escape');
    const [account] = (await (await page.request.get('/api/accounts')).json()) as Array<{ username: string; combinedUrl: string }>;

    // v2rayNG on three networks (the site trusts the proxy in front of it for the client address).
    const fetchFrom = (address: string) => page.request.get(account!.combinedUrl, { headers: { 'user-agent': 'v2rayNG/1.9.5', 'x-forwarded-for': address } });
    expect((await fetchFrom('198.51.100.1')).headers()['x-hwid-max-devices-reached']).toBeUndefined();
    expect((await fetchFrom('198.51.100.2')).headers()['x-hwid-max-devices-reached']).toBeUndefined();
    expect((await fetchFrom('198.51.100.3')).headers()['x-hwid-max-devices-reached']).toBe('true');

    await page.reload();
    const devicesButton = page.getByRole('button', { name: `Devices ${account!.username}` });
    await expect(devicesButton).toContainText('2 of 2');
    await devicesButton.click();
    const dialog = page.getByRole('dialog', { name: `Devices of ${account!.username}` });
    await expect(dialog.getByRole('listitem')).toHaveCount(2);
    await expect(dialog.getByRole('listitem').first()).toContainText('Unknown device (v2rayNG)');
    await dialog.getByRole('button', { name: 'Remove Unknown device (v2rayNG)' }).first().click();
    await page.getByRole('dialog', { name: 'Remove this device?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Device removed')).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveCount(1);
    expect((await fetchFrom('198.51.100.3')).headers()['x-hwid-max-devices-reached']).toBeUndefined();
  } finally {
    await api.put('/api/admin/settings', { devicelessClients: 'allow' });
    if (planId) await api.patch(`/api/admin/plans/${planId}`, { status: 'disabled' });
    await admin.context().close();
    await panel.close();
  }
});
