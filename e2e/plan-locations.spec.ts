import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signInAsNewAdmin, test } from './site.js';

const GB = 1024 ** 3;

/**
 * Locations per plan (issue 55): the admin marks a server premium, ticks it on a plan with the panel's service picked
 * from its list, and the pricing card of that plan says where it is, in each reader's language.
 */
test('the admin gives a plan a premium location with its service, and the pricing card names it in every language', async ({ page, site, consoleErrors }) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  const stamp = Date.now();
  const serverName = `Amsterdam ${stamp}`;
  const tier = `Premium ${stamp}`;
  const headers = { origin: site.baseURL };
  let planId = '';
  try {
    await signInAsNewAdmin(page, site, 'admin-plan-locations');
    const server = await page.request.post('/api/admin/servers', {
      headers,
      data: {
        kind: 'marzneshin',
        name: serverName,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'NL',
        premium: true,
      },
    });
    expect(server.status()).toBe(201);
    const serverId = ((await server.json()) as { id: string }).id;
    const created = await page.request.post('/api/admin/plans', {
      headers,
      data: { name: `${tier} 2 Years`, tier, days: 730, dataLimitBytes: 50 * GB, price: 1499, public: true, sortOrder: 97_000 },
    });
    expect(created.status()).toBe(201);
    planId = ((await created.json()) as { id: string }).id;

    // The server form shows it premium.
    await page.goto('/admin/servers');
    await page
      .getByRole('row')
      .filter({ hasText: serverName })
      .getByRole('button', { name: `Edit ${serverName}` })
      .click();
    await expect(page.getByRole('dialog').getByLabel('Premium location')).toBeChecked();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // The plan ticks it, with service 2 picked from the panel's list.
    await page.goto('/admin/plans');
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: `${tier} 2 Years`, exact: true }) })
      .getByRole('button', { name: `Edit ${tier} 2 Years` })
      .click();
    const form = page.getByRole('dialog');
    const servers = form.getByRole('group', { name: 'Servers' });
    await servers.getByLabel(`${serverName} (NL) · premium`).check();
    await servers.getByRole('button', { name: "Load the panel's list" }).click();
    await servers.getByLabel('Service ID').selectOption('2');
    await page.screenshot({ path: test.info().outputPath('plan-servers.png'), fullPage: true });
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(form).toBeHidden();
    const saved = ((await (await page.request.get('/api/admin/plans')).json()) as Array<{ id: string; servers: unknown; locationCodes: string[] }>).find(
      (plan) => plan.id === planId,
    )!;
    expect(saved.servers).toEqual([{ serverId, serviceId: '2' }]);
    expect(saved.locationCodes).toEqual(['NL']);

    // Each reader is told where it is, in their language (two years: the period the pricing page opens on).
    for (const [path, line] of [
      ['/pricing', 'Locations: Netherlands'],
      ['/ru/pricing', 'Локации: Нидерланды'],
      ['/fa/pricing', 'مکان‌ها: هلند'],
      ['/zh/pricing', '位置：荷兰'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('article', { name: tier }), path).toContainText(line);
    }
    await page.screenshot({ path: test.info().outputPath('pricing-zh.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
  } finally {
    // Off the public pages for the other tests.
    if (planId) await page.request.patch(`/api/admin/plans/${planId}`, { headers, data: { status: 'disabled', servers: [] } });
    await panel.close();
  }
});
