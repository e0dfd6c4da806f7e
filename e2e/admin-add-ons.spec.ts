import type { Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

/** Nothing wider than the screen (at 390 px the table scrolls inside its own box). */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  expect(widths.page, what).toBeLessThanOrEqual(widths.screen);
}

test('the admin sells add-ons from the Plans tab: creates "+1 device" for one plan and "+50 GB" for all, edits, switches off, and deletes', async ({
  page,
  site,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  const stamp = Date.now();
  const plan = `Add-on plan ${stamp}`;
  const device = `Extra device ${stamp}`;
  const traffic = `Fifty GB ${stamp}`;
  try {
    await signInAsNewAdmin(page, site, 'admin-add-ons-tab');
    await addServerAndPlan(page, site, panel, { name: plan, price: 499 });
    const headers = { origin: site.baseURL };
    const plans = (await (await page.request.get('/api/admin/plans')).json()) as Array<{ id: string; name: string }>;
    const planId = plans.find((candidate) => candidate.name === plan)!.id;
    expect((await page.request.patch(`/api/admin/plans/${planId}`, { data: { deviceLimit: 2 }, headers })).status()).toBe(200);
    expect((await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers })).status()).toBe(200);

    // "+1 device", for the one plan, named in all four languages.
    await page.goto('/admin/plans');
    const section = page.getByRole('region', { name: 'Add-ons' });
    await section.getByRole('button', { name: 'Create add-on' }).click();
    let form = page.getByRole('dialog', { name: 'Create add-on' });
    await form.getByLabel('Name (English)').fill(device);
    await form.getByLabel('Name (Русский)').fill(`Ещё одно устройство ${stamp}`);
    await form.getByLabel('Name (فارسی)').fill(`یک دستگاه بیشتر ${stamp}`);
    await form.getByLabel('Name (简体中文)').fill(`加一台设备 ${stamp}`);
    await expect(form.getByLabel('What it gives')).toHaveValue('devices');
    await form.getByLabel('Devices', { exact: true }).fill('1');
    await form.getByLabel('Price (USD)').fill('1.99');
    await form.getByLabel(plan, { exact: true }).check();
    await expectNoSidewaysScroll(page, 'the add-on form');
    await page.screenshot({ path: test.info().outputPath('form.png'), fullPage: true });
    await form.getByRole('button', { name: 'Create add-on' }).click();
    await expect(page.getByText('Add-on created')).toBeVisible();
    const deviceRow = section.getByRole('row').filter({ hasText: device });
    for (const text of ['+1 device', '$1.99', plan, 'until the period ends', 'Active']) await expect(deviceRow).toContainText(text);

    // "+50 GB", for every plan, for good: typed in gigabytes, sent as bytes.
    await section.getByRole('button', { name: 'Create add-on' }).click();
    form = page.getByRole('dialog', { name: 'Create add-on' });
    await form.getByLabel('Name (English)').fill(traffic);
    await form.getByLabel('What it gives').selectOption('traffic');
    await form.getByLabel('Traffic (GB)').fill('50');
    await form.getByLabel('Price (USD)').fill('3');
    await form.getByLabel('Lasts').selectOption('forever');
    await form.getByRole('button', { name: 'Create add-on' }).click();
    await expect(form).toHaveCount(0);
    const trafficRow = section.getByRole('row').filter({ hasText: traffic });
    for (const text of ['+50 GB', '$3.00', 'All plans', 'for good', 'Active']) await expect(trafficRow).toContainText(text);
    const saved = (await (await page.request.get('/api/admin/add-ons')).json()) as Array<{
      id: string;
      name: string;
      amount: number;
      price: number;
      appliesTo: unknown;
    }>;
    expect(saved.find((addOn) => addOn.name === traffic)).toMatchObject({ amount: 50 * 1024 ** 3, price: 300, appliesTo: null });
    expect(saved.find((addOn) => addOn.name === device)).toMatchObject({ amount: 1, price: 199, appliesTo: [planId] });
    await expectNoSidewaysScroll(page, 'the Plans tab with its add-ons');
    await section.screenshot({ path: test.info().outputPath('add-ons.png') });

    // Editing: the form holds what was saved (50 GB, $3.00); 100 GB for $2.50 is saved over it.
    await trafficRow.getByRole('button', { name: `Edit ${traffic}` }).click();
    form = page.getByRole('dialog', { name: `Edit ${traffic}` });
    await expect(form.getByLabel('Traffic (GB)')).toHaveValue('50');
    await expect(form.getByLabel('Price (USD)')).toHaveValue('3.00');
    await form.getByLabel('Traffic (GB)').fill('100');
    await form.getByLabel('Price (USD)').fill('2.50');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Add-on updated')).toBeVisible();
    await expect(trafficRow).toContainText('+100 GB');
    await expect(trafficRow).toContainText('$2.50');

    // A customer buys "+1 device" for an account of the plan.
    const customer = await browser.newPage();
    await signIn(customer, site, uniqueEmail('add-on-tab-buyer'));
    await customer
      .getByRole('listitem')
      .filter({ has: customer.getByRole('heading', { name: plan }) })
      .getByRole('button', { name: 'Buy' })
      .click();
    await customer
      .getByRole('dialog', { name: `Buy ${plan}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await customer.getByRole('button', { name: 'Pay $4.99' }).click();
    await expect(customer.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    await customer.keyboard.press('Escape');
    await customer
      .getByRole('row')
      .filter({ hasText: plan })
      .getByRole('button', { name: /Add-ons/ })
      .click();
    const offer = customer.getByRole('dialog', { name: /Add-ons for/ }).getByRole('region', { name: device });
    await offer.getByRole('button', { name: 'Pay $1.99 with card' }).click();
    await customer.getByRole('button', { name: 'Pay $1.99' }).click();
    await expect(customer).toHaveURL(/\/thank-you\?session_id=cs_test_/);
    await customer.close();

    // Bought, it cannot be deleted (the server's 409 says why), only switched off.
    await deviceRow.getByRole('button', { name: `Delete ${device}` }).click();
    await page.getByRole('dialog', { name: 'Delete add-on' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Accounts have this add-on: switch it off instead of deleting it.')).toBeVisible();
    await expect(deviceRow).toHaveCount(1);
    await deviceRow.getByRole('button', { name: `Disable ${device}` }).click();
    await expect(page.getByText('Add-on switched off')).toBeVisible();
    await expect(deviceRow).toContainText('Disabled');
    await expect(deviceRow.getByRole('button', { name: `Enable ${device}` })).toBeVisible();

    // Nobody bought the traffic one: it goes.
    await trafficRow.getByRole('button', { name: `Delete ${traffic}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete add-on' });
    await expect(confirm).toContainText(traffic);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Add-on deleted')).toBeVisible();
    await expect(trafficRow).toHaveCount(0);

    // After a reload the table reads the same from the server.
    await page.reload();
    await expect(deviceRow).toContainText('Disabled');
    await expect(trafficRow).toHaveCount(0);
    const deviceId = saved.find((addOn) => addOn.name === device)!.id;
    expect(consoleErrors).toEqual([`Failed to load resource: the server responded with a status of 409 (Conflict) at /api/admin/add-ons/${deviceId}`]);
  } finally {
    await panel.close();
  }
});
