import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('a customer buys "+1 device" for an account by card, and sees it on the account', async ({ page, site, browser }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const plan = `Duo ${Date.now()}`;
  const addOn = `Extra device ${Date.now()}`;
  try {
    await signInAsNewAdmin(page, site, 'admin-add-ons');
    await addServerAndPlan(page, site, panel, { name: plan, price: 499 });
    const post = (url: string, data: object) => page.request.post(url, { data, headers: { origin: site.baseURL } });
    const plans = (await (await page.request.get('/api/admin/plans')).json()) as Array<{ id: string; name: string }>;
    const planId = plans.find((candidate) => candidate.name === plan)!.id;
    expect((await page.request.patch(`/api/admin/plans/${planId}`, { data: { deviceLimit: 2 }, headers: { origin: site.baseURL } })).status()).toBe(200);
    expect((await post('/api/admin/add-ons', { name: addOn, kind: 'devices', amount: 1, price: 199, appliesTo: [planId] })).status()).toBe(201);
    expect(
      (await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } })).status(),
    ).toBe(200);

    const customer = await browser.newPage();
    await signIn(customer, site, uniqueEmail('add-on-buyer'));
    const card = customer.getByRole('listitem').filter({ has: customer.getByRole('heading', { name: plan }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    await customer
      .getByRole('dialog', { name: `Buy ${plan}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await customer.getByRole('button', { name: 'Pay $4.99' }).click();
    await expect(customer.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    await customer.keyboard.press('Escape');

    const row = customer.getByRole('row').filter({ hasText: plan });
    await row.getByRole('button', { name: /Add-ons/ }).click();
    const dialog = customer.getByRole('dialog', { name: /Add-ons for/ });
    const offer = dialog.getByRole('region', { name: addOn });
    await expect(offer).toContainText('+1 device · until your paid period ends');
    await offer.getByRole('button', { name: 'Pay $1.99 with card' }).click();
    await customer.getByRole('button', { name: 'Pay $1.99' }).click();
    await expect(customer).toHaveURL(/\/thank-you\?session_id=cs_test_/);
    await expect(customer.getByText('Your add-on is active')).toBeVisible({ timeout: 15_000 });
    await customer.goto('/dashboard');
    await customer
      .getByRole('row')
      .filter({ hasText: plan })
      .getByRole('button', { name: /Add-ons/ })
      .click();
    await expect(customer.getByTestId('active-add-ons')).toContainText('+1 device · until', { timeout: 15_000 });

    // Where a payment link from the bot leads for the account's add-ons or a plan change: that dialog opens, once.
    const [account] = (await (await customer.request.get('/api/accounts')).json()) as Array<{ id: string; username: string }>;
    await customer.goto(`/dashboard?add-ons=${account!.id}`);
    await expect(customer.getByRole('dialog', { name: /Add-ons for/ })).toBeVisible();
    await expect(customer).toHaveURL(/\/dashboard$/);
    await customer.keyboard.press('Escape');
    await customer.goto(`/dashboard?change-plan=${account!.id}`);
    await expect(customer.getByRole('dialog', { name: `Change the plan of ${account!.username}` })).toBeVisible();
    await customer.keyboard.press('Escape');
    // Someone else's account (or none): said plainly, no dialog.
    await customer.goto('/dashboard?add-ons=not-theirs');
    await expect(customer.getByText('That VPN account cannot change now. Your accounts are below.')).toBeVisible();
    await expect(customer.getByRole('dialog')).toHaveCount(0);
  } finally {
    await panel.close();
  }
});
