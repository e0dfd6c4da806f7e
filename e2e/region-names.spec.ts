import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

const GB = 1024 ** 3;

/**
 * Issue 57: a server's public region name in the reader's language. The admin writes the Russian name beside the
 * English one in the server form; a Russian reader's dashboard and status page show it, an English one the name as written.
 */
test("the admin writes a region's Russian name in the server form, and the Russian dashboard and status page show it", async ({ page, site, browser }) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  const adminContext = await browser.newContext({ baseURL: site.baseURL });
  const admin = await adminContext.newPage();
  const headers = { origin: site.baseURL };
  const tag = `${Date.now()}`;
  const english = `Germany ${tag}`;
  const russian = `Германия ${tag}`;
  let planId: string | undefined;
  let serverId: string | undefined;
  try {
    await signInAsNewAdmin(admin, site, 'region-names-admin');
    const server = await admin.request.post('/api/admin/servers', {
      headers,
      data: {
        kind: 'marzneshin',
        name: `Panel ${tag}`,
        publicName: english,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
    });
    expect(server.status()).toBe(201);
    serverId = ((await server.json()) as { id: string }).id;

    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Master Servers' }).click();
    await admin.getByRole('button', { name: `Edit Panel ${tag}` }).click();
    const form = admin.getByRole('dialog');
    const russianField = form.getByLabel('Public region name (Русский)');
    await expect(russianField).toHaveAttribute('placeholder', english);
    await russianField.fill(russian);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(admin.getByRole('dialog')).toHaveCount(0);

    const created = await admin.request.post('/api/admin/plans', {
      headers,
      data: { name: `Week ${tag}`, days: 7, dataLimitBytes: GB, price: 0, public: false, servers: [{ serverId }] },
    });
    expect(created.status(), await created.text()).toBe(201);
    planId = ((await created.json()) as { id: string }).id;

    await signIn(page, site, uniqueEmail('region-names'));
    expect((await page.request.post('/api/accounts', { headers, data: { planId } })).status()).toBe(201);

    await page.goto('/ru/dashboard');
    const table = page.getByRole('table');
    await expect(table.getByText(russian)).toBeVisible();
    await expect(table.getByText(english)).toHaveCount(0);
    await page.goto('/ru/status');
    await expect(page.getByText(russian, { exact: true })).toBeVisible();
    await expect(page.getByText(english, { exact: true })).toHaveCount(0);

    await page.goto('/dashboard');
    await expect(page.getByRole('table').getByText(english)).toBeVisible();
  } finally {
    if (planId) await admin.request.delete(`/api/admin/plans/${planId}`, { headers });
    await adminContext.close();
    await panel.close();
  }
});
