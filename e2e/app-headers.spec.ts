import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { SUBSCRIPTION_HEADER_DEFAULTS } from '../shared/subscription-headers.js';
import { expect, postJson, signInAsNewAdmin, signInOverApi, test, uniqueEmail } from './site.js';

/**
 * The admin tells VPN apps what to show (issue 52): in Settings → VPN apps, an announcement per language and
 * Happ's provider id, each explained; a wrong id is refused on its field; Happ then gets the headers, the
 * announcement in the account owner's language.
 */
test('the admin sets the announcement and the Happ provider id in Settings, and Happ gets them in the owner’s language', async ({ page, site }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    await signInAsNewAdmin(page, site, 'admin-app-headers');
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    const section = page.getByRole('region', { name: 'VPN apps' });
    await expect(section.getByText('Shown above the servers in Happ and v2RayTun (announce).', { exact: false })).toBeVisible();
    await section.getByLabel('English').fill('Maintenance on Sunday');
    await section.getByLabel('Русский').fill('Работы в воскресенье');
    await section.getByLabel('Happ provider ID').fill('abc');
    await section.getByRole('button', { name: 'Save app settings' }).click();
    await expect(section.getByText('The Happ provider id is 8 letters and digits (happ-proxy.com, your profile)')).toBeVisible();
    await section.getByLabel('Happ provider ID').fill('Ab12Cd34');
    await section.getByLabel('Hide server settings in Happ').check();
    await section.getByRole('button', { name: 'Save app settings' }).click();
    await expect(page.getByText('App settings updated')).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    await expect(page.getByRole('region', { name: 'VPN apps' }).getByLabel('Happ provider ID')).toHaveValue('Ab12Cd34');

    // A Russian-speaking customer's account, fetched by Happ.
    const adminEmail = uniqueEmail('admin-app-headers-api');
    const adminToken = await signInOverApi(site, adminEmail);
    await site.database.db('user_profiles').where({ email: adminEmail }).update({ role: 'owner' });
    const server = await postJson(
      site,
      '/api/admin/servers',
      {
        kind: 'marzneshin',
        name: `Headers ${Date.now()}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      adminToken,
    );
    expect(server.status).toBe(201);
    const plan = await postJson(site, '/api/admin/plans', { name: `Free headers ${Date.now()}`, days: 30, dataLimitBytes: 1024 ** 3, price: 0 }, adminToken);
    expect(plan.status).toBe(201);
    const email = uniqueEmail('app-headers-ru');
    const customer = await signInOverApi(site, email);
    await site.database.db('user_profiles').where({ email }).update({ locale: 'ru' });
    const claimed = await postJson(site, '/api/accounts', { planId: ((await plan.json()) as { id: string }).id }, customer);
    expect(claimed.status).toBe(201);
    const { subscriptionUrl } = (await claimed.json()) as { subscriptionUrl: string };
    const answer = await fetch(subscriptionUrl, { headers: { 'user-agent': 'Happ/3.2.1', 'x-hwid': 'happ-e2e-device-1' } });
    expect(answer.status).toBe(200);
    expect(Buffer.from(answer.headers.get('announce')!.replace(/^base64:/, ''), 'base64').toString('utf8')).toBe('Работы в воскресенье');
    expect(answer.headers.get('providerid')).toBe('Ab12Cd34');
    expect(answer.headers.get('hide-settings')).toBe('1');
  } finally {
    await page.request.put('/api/admin/settings', { data: { subscriptionHeaders: SUBSCRIPTION_HEADER_DEFAULTS }, headers: { origin: site.baseURL } });
    await panel.close();
  }
});
