import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('a customer changes plan from the dashboard: the unused days are credited, the difference is paid by card, the link stays', async ({
  page,
  site,
  browser,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const basic = `Basic ${Date.now()}`;
  const pro = `Pro ${Date.now()}`;
  try {
    await signInAsNewAdmin(page, site, 'admin-plan-change');
    await addServerAndPlan(page, site, panel, { name: basic, price: 499 });
    const proPlan = await page.request.post('/api/admin/plans', {
      data: { name: pro, days: 30, dataLimitBytes: 100 * 1024 ** 3, price: 999, locations: 'all' },
      headers: { origin: site.baseURL },
    });
    expect(proPlan.status()).toBe(201);
    expect(
      (await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } })).status(),
    ).toBe(200);

    const customer = await browser.newPage();
    await signIn(customer, site, uniqueEmail('plan-changer'));
    const card = customer.getByRole('listitem').filter({ has: customer.getByRole('heading', { name: basic }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    await customer
      .getByRole('dialog', { name: `Buy ${basic}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await customer.getByRole('button', { name: 'Pay $4.99' }).click();
    await expect(customer.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    await customer.keyboard.press('Escape');
    const row = customer.getByRole('row').filter({ hasText: basic });
    const link = await row.locator('code').getAttribute('title');

    await row.getByRole('button', { name: /Change plan/ }).click();
    const dialog = customer.getByRole('dialog', { name: /Change the plan of/ });
    await dialog.getByRole('radio', { name: new RegExp(pro) }).check();
    // Bought a moment ago: all 30 days are credited against the new plan.
    await expect(dialog.getByTestId('change-credit')).toHaveText('−$4.99');
    await expect(dialog.getByText('Credit for 30 unused days')).toBeVisible();
    await expect(dialog.getByTestId('change-charge')).toHaveText('$5.00');
    await dialog.getByRole('button', { name: 'Pay $5.00 with card' }).click();
    await customer.getByRole('button', { name: 'Pay $5.00' }).click();
    await expect(customer).toHaveURL(/\/thank-you\?session_id=cs_test_/);
    await expect(customer.getByText('Your plan has been changed')).toBeVisible({ timeout: 15_000 });
    await customer.goto('/dashboard');
    const changed = customer.getByRole('row').filter({ hasText: pro });
    await expect(changed).toContainText('100 GB', { timeout: 15_000 });
    expect(await changed.locator('code').getAttribute('title')).toBe(link);
    await expect(customer.getByRole('row').filter({ hasText: basic })).toHaveCount(0);
  } finally {
    await panel.close();
  }
});
