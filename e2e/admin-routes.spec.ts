import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signInAsNewAdmin, test, type Site } from './site.js';

/** A new customer made admin in the database: no address of ADMIN_EMAILS (each signs in once a minute) is needed. */
const signInAsAdmin = (page: Page, site: Site) => signInAsNewAdmin(page, site, 'admin-routes');

test('each admin tab is a link to a path of its own: opened directly, kept on reload, moved through by the arrow keys', async ({
  page,
  site,
  consoleErrors,
}) => {
  await signInAsAdmin(page, site);
  await page.goto('/admin/payments');
  const payments = page.getByRole('tab', { name: 'Payments' });
  await expect(payments).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel').getByRole('heading', { name: 'Transactions' })).toBeVisible();
  await expect(payments).toHaveAttribute('href', '/admin/payments');
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('href', '/admin');

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Payments' })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('tab', { name: 'Payments' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Settings' })).toBeFocused();
  await page.getByRole('tab', { name: 'Logs' }).click();
  await expect(page).toHaveURL(/\/admin\/logs$/);
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');

  // In Russian, under its prefix; a tab that does not exist is the not-found page.
  await page.goto('/ru/admin/payments');
  await expect(page.getByRole('tab', { name: 'Платежи' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Платежи' })).toHaveAttribute('href', '/ru/admin/payments');
  expect((await page.goto('/admin/nope'))!.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  expect(consoleErrors.filter((error) => !/404|Not Found/i.test(error))).toEqual([]);
});

test('a filter picked in the same moment as the search is typed keeps the search', async ({ page, site }) => {
  const tag = `zz-race-${Date.now()}`;
  await site.database
    .db('user_profiles')
    .insert({ id: randomUUID(), email: `${tag}@example.com`, role: 'user', trial_used: false, created_at: new Date(), updated_at: new Date() });
  await signInAsAdmin(page, site);
  await page.goto('/admin/users');
  const search = await page.getByLabel('Search by e-mail').elementHandle();
  const role = await page.getByLabel('Role', { exact: true }).elementHandle();
  // Both in one task: React has not rendered the typed search when the role changes.
  await page.evaluate(
    ([input, select, value]) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, 'user');
      select.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [search, role, tag] as const,
  );
  await expect(page).toHaveURL(new RegExp(`/admin/users\\?q=${tag}&role=user$`));
  await expect(page.getByLabel('Search by e-mail')).toHaveValue(tag);
  await expect(page.getByRole('table', { name: 'Users' }).locator('tbody tr')).toHaveCount(1);
});

test("the Users tab keeps its search and filter in the URL: a customer's page goes back to the same list", async ({ page, site }) => {
  const tag = `zz-routes-${Date.now()}`;
  const now = Date.now();
  await site.database.db('user_profiles').insert(
    Array.from({ length: 3 }, (_, i) => ({
      id: randomUUID(),
      email: `${tag}-${i}@example.com`,
      role: 'user',
      trial_used: false,
      created_at: new Date(now - i * 1000),
      updated_at: new Date(now),
    })),
  );
  await signInAsAdmin(page, site);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.getByLabel('Search by e-mail').fill(tag);
  await page.getByLabel('Role', { exact: true }).selectOption('user');
  await expect(page).toHaveURL(new RegExp(`/admin/users\\?q=${tag}&role=user$`));
  const rows = page.getByRole('table', { name: 'Users' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  const listUrl = page.url();

  await page.getByRole('link', { name: `${tag}-1@example.com` }).click();
  await expect(page.getByRole('heading', { name: `${tag}-1@example.com` })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(listUrl);
  await expect(page.getByLabel('Search by e-mail')).toHaveValue(tag);
  await expect(page.getByLabel('Role', { exact: true })).toHaveValue('user');
  await expect(rows).toHaveCount(3);

  // The page's own link back goes to the same list; so does a reload of it.
  await page.getByRole('link', { name: `${tag}-2@example.com` }).click();
  await page.getByRole('link', { name: '← All users' }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(rows).toHaveCount(3);
  await page.reload();
  await expect(page.getByLabel('Search by e-mail')).toHaveValue(tag);
  await expect(rows).toHaveCount(3);
});

test('the setup checklist ticks off the brand name as soon as it is saved in Settings', async ({ page, site }) => {
  const { db } = site.database;
  const saved = await db('settings').where({ id: 'app_config' }).first();
  const stored = saved ? ((typeof saved.value === 'string' ? JSON.parse(saved.value) : saved.value) as Record<string, unknown>) : {};
  await db('settings')
    .insert({ id: 'app_config', value: JSON.stringify({ ...stored, brand_name: '' }), updated_at: new Date() })
    .onConflict('id')
    .merge(['value']);
  try {
    await signInAsAdmin(page, site);
    await page.goto('/admin');
    const checklist = page.getByRole('region', { name: /Finish setting up your site/ });
    await expect(checklist).toContainText('Set your brand name (to do)');
    await checklist.getByRole('link', { name: /^Open Settings \(General\) to set your brand name/ }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/general$/);
    await page.getByLabel('Brand name').fill('Routes VPN');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings updated successfully')).toBeVisible();
    // At once, without a reload (the checklist goes when nothing is left to do).
    await expect(page.getByRole('listitem').filter({ hasText: 'Set your brand name (to do)' })).toHaveCount(0);
    if (await checklist.isVisible()) await expect(checklist).toContainText('Set your brand name (done)');
  } finally {
    // The other tests of this worker share the site: put the settings back as they were.
    await db('settings')
      .where({ id: 'app_config' })
      .update({ value: saved ? saved.value : JSON.stringify(stored) });
  }
});

test('the tab bar scrolls sideways on a 390 px screen without a scrollbar under it', async ({ page, site }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page, site);
  await page.goto('/admin');
  const bar = await page.getByRole('tablist').evaluate((element: HTMLElement) => ({
    scrollable: element.scrollWidth > element.clientWidth,
    scrollbarHeight: element.offsetHeight - element.clientHeight,
    scrollbarWidth: getComputedStyle(element).scrollbarWidth,
  }));
  expect(bar).toEqual({ scrollable: true, scrollbarHeight: 0, scrollbarWidth: 'none' });
  await page.getByRole('tab', { name: 'System' }).click();
  await expect(page.getByRole('tab', { name: 'System' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'System' })).toBeInViewport();
  // A tab past the edge, opened by its address, is scrolled into the strip.
  await page.goto('/admin/logs');
  await expect(page.getByRole('tab', { name: 'Logs' })).toBeInViewport();
});

test('a chart with no data shows only "No data yet", without an empty axis', async ({ page, site }) => {
  await signInAsAdmin(page, site);
  // Whatever traffic this shared site has seen, the overview reports none.
  await page.route(
    (url) => url.pathname === '/api/admin/overview',
    async (route) => {
      const response = await route.fetch();
      const overview = await response.json();
      overview.traffic = overview.traffic.map((server: { bytes: number[] }) => ({ ...server, bytes: server.bytes.map(() => 0) }));
      overview.totals.trafficBytes = 0;
      await route.fulfill({ response, json: overview });
    },
  );
  await page.goto('/admin');
  const traffic = page.getByRole('figure', { name: /Traffic per server per day/ });
  await expect(traffic).toContainText('No data yet');
  await expect(traffic.locator('canvas')).toHaveCount(0);
  await expect(traffic.locator('.u-axis')).toHaveCount(0);
  // A chart with data still draws its axes.
  await expect(page.getByRole('figure', { name: /Signups per day/ }).locator('canvas')).not.toHaveCount(0);
});

test('the Logs tab says what it lists, and shows a refund in words', async ({ page, site }) => {
  const transactionId = randomUUID();
  await site.database.db('vpn_account_logs').insert({
    vpn_account_id: null,
    user_id: null,
    step: 'payment_refunded',
    status: 'success',
    created_at: new Date(),
    details: JSON.stringify({ transactionId, amountRefunded: 1299, full: true }),
  });
  await signInAsAdmin(page, site);
  await page.goto('/admin/logs');
  await expect(page.getByText(/entries of the account and payment log/)).toBeVisible();
  const row = page
    .getByRole('table', { name: 'Account and payment log' })
    .getByRole('row')
    .filter({ hasText: transactionId.slice(0, 8) });
  await expect(row).toContainText('Payment refunded');
  await expect(row).toContainText(/Refunded in total: \D*12[.,]99/);
  await expect(row).toContainText('Full refund: Yes');
  await expect(row).not.toContainText('transactionId');
  await expect(row).not.toContainText(transactionId);
});

test('Create Account picks the only enabled server by itself', async ({ page, site }) => {
  const { db } = site.database;
  const panel = await startFakeMarzneshin();
  // The other tests of this worker may have left servers enabled: only ours is, for this test.
  const others = (await db('masterservers').where({ status: 'active' }).select('id')).map((row: { id: string }) => row.id);
  let created: string | undefined;
  try {
    await db('masterservers').whereIn('id', others).update({ status: 'disabled' });
    await signInAsAdmin(page, site);
    const server = await page.request.post('/api/admin/servers', {
      data: {
        kind: 'marzneshin',
        name: `Only ${Date.now()}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      headers: { origin: site.baseURL },
    });
    expect(server.status()).toBe(201);
    created = (await server.json()).id as string;
    await page.goto('/create');
    await expect(page.getByLabel('Master server')).toHaveValue(created);
  } finally {
    if (created) await page.request.delete(`/api/admin/servers/${created}`, { headers: { origin: site.baseURL } });
    await db('masterservers').whereIn('id', others).update({ status: 'active' });
    await panel.close();
  }
});
