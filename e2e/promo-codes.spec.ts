import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signInAsNewAdmin, signInWithCode, test, uniqueEmail } from './site.js';

test('the admin makes a promo code; a customer follows a ?promo= link, sees $10 → $8, pays $8, and the history names the code', async ({
  page,
  site,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  try {
    await signInAsNewAdmin(page, site, 'admin-promo');
    const planName = `Ten ${Date.now()}`;
    await addServerAndPlan(page, site, panel, { name: planName, price: 1000 });
    const card = await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } });
    expect(card.status()).toBe(200);

    // The admin creates the code in the Promotions tab.
    const code = `SAVE${Date.now() % 100000}`;
    await page.goto('/admin/promotions');
    await page.getByRole('button', { name: 'Create promo code' }).click();
    const form = page.getByRole('dialog', { name: 'Create promo code' });
    await form.getByLabel('Code', { exact: true }).fill(code);
    await form.getByLabel('Percent off').fill('20');
    await form.getByLabel('Uses in all').fill('10');
    await form.getByRole('button', { name: 'Create promo code' }).click();
    await expect(page.getByText('Promo code created')).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: code });
    await expect(row).toContainText('20% · First payment');
    await expect(row).toContainText('0 / 10');
    await page.context().clearCookies();

    // A customer arrives by the operator's link, signs in, and buys.
    await page.goto(`/pricing?promo=${code.toLowerCase()}`);
    await page.goto('/login');
    await signInWithCode(page, site, uniqueEmail('promo-buyer'));
    await expect(page).toHaveURL(/\/dashboard$/);
    const plan = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
    await plan.getByRole('button', { name: 'Buy' }).click();
    const dialog = page.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(dialog.getByTestId('promo-applied')).toContainText(`${code}: $2.00 off · on the first payment`);
    await expect(dialog.getByTestId('price-after')).toHaveText('$8.00');
    await expect(dialog.locator('s')).toHaveText('$10.00');
    await page.screenshot({ path: test.info().outputPath('dialog.png') });

    // Removing it and typing a wrong one: the server's reason is shown.
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(dialog.getByRole('button', { name: 'Pay $10.00 with card' })).toBeVisible();
    await dialog.getByLabel('Promo code').fill('NOPE-NOPE');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('This promo code does not exist.');
    await dialog.getByLabel('Promo code').fill(code);
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByRole('button', { name: 'Pay $8.00 with card' }).click();

    await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);
    await expect(page.getByText('Discount −$2.00')).toBeVisible();
    await page.getByRole('button', { name: 'Pay $8.00' }).click();
    await expect(page).toHaveURL(/\/thank-you\?session_id=cs_test_/);
    await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    const sessionId = new URL(page.url()).searchParams.get('session_id')!;
    expect(site.stripe.getSession(sessionId)).toMatchObject({ amount_subtotal: 1000, amount_total: 800 });

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const history = page.getByRole('dialog', { name: 'Transaction History' }).getByRole('row').filter({ hasText: planName });
    await expect(history).toContainText('$8.00');
    await expect(history).toContainText(`Code ${code}: −$2.00`);
    await page.screenshot({ path: test.info().outputPath('history.png') });
    // The one refused code (400 promo_invalid) is the browser's only complaint.
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request) at /api/checkout/quote']);
  } finally {
    await panel.close();
  }
});
