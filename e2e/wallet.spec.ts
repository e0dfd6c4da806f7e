import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('a customer tops up their balance by card, buys a plan from it, and sees what support put in', async ({ page, site, browser }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const planName = `Wallet ${Date.now()}`;
  try {
    await signInAsNewAdmin(page, site, 'admin-wallet');
    await addServerAndPlan(page, site, panel, { name: planName, price: 499 });
    expect(
      (await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } })).status(),
    ).toBe(200);

    const customer = await browser.newPage();
    const email = uniqueEmail('wallet-buyer');
    await signIn(customer, site, email);
    await customer.getByRole('link', { name: 'Balance: $0.00' }).click();
    await expect(customer.getByRole('heading', { name: 'Your balance' })).toBeVisible();
    await expect(customer.getByTestId('wallet-balance')).toHaveText('$0.00');
    const amount = customer.getByLabel('Amount (USD)');
    await amount.fill('2');
    await customer.getByRole('button', { name: 'Top up: Card' }).click();
    await expect(customer.getByRole('alert')).toHaveText('From $5.00 to $1,000.00 at a time.');
    await amount.fill('10');
    await customer.getByRole('button', { name: 'Top up: Card' }).click();

    await expect(customer).toHaveURL(/\/checkout\/pay\/cs_test_/);
    await customer.getByRole('button', { name: 'Pay $10.00' }).click();
    await expect(customer).toHaveURL(/\/wallet\?session_id=cs_test_/);
    await expect(customer.getByText('Your balance has been topped up.')).toBeVisible({ timeout: 15_000 });
    await expect(customer.getByTestId('wallet-balance')).toHaveText('$10.00');
    await expect(customer.getByRole('listitem').filter({ hasText: 'Top-up' })).toContainText('+$10.00');

    await customer.getByRole('link', { name: '← Back to the dashboard' }).click();
    const card = customer.getByRole('listitem').filter({ has: customer.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    const buy = customer.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(buy.getByTestId('credit-used')).toHaveText('−$4.99');
    await buy.getByRole('button', { name: 'Pay $4.99 from balance' }).click();
    await expect(customer).toHaveURL(/\/thank-you\?session_id=free_/);
    await expect(customer.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    await customer.keyboard.press('Escape');
    await expect(customer.getByRole('link', { name: 'Balance: $5.01' })).toBeVisible();

    // The account renews itself from the balance once it is set to: a day before it ends.
    const row = customer.getByRole('row').filter({ hasText: planName });
    const autoRenew = row.getByRole('button', { name: /Auto-renew from balance/ });
    await expect(autoRenew).toHaveAttribute('aria-pressed', 'false');
    await autoRenew.click();
    await expect(customer.getByText('This account will renew from your balance a day before it ends.')).toBeVisible();
    await expect(autoRenew).toHaveAttribute('aria-pressed', 'true');
    await expect(row).toContainText(/Renews from your balance on /);
    await customer.reload();
    await expect(row.getByRole('button', { name: /Auto-renew from balance/ })).toHaveAttribute('aria-pressed', 'true');
    await row.getByRole('button', { name: /Auto-renew from balance/ }).click();
    await expect(customer.getByText('Auto-renew from your balance is off.')).toBeVisible();
    await expect(row).not.toContainText('Renews from your balance');

    // Support puts a dollar in, with a note the customer reads.
    const userId = (await site.database.db('user_profiles').where({ email }).first()).id as string;
    await page.goto(`/admin/users/${userId}`);
    const walletSection = page.getByRole('region', { name: 'Balance' });
    await expect(walletSection.getByTestId('admin-wallet-balance')).toHaveText('$5.01');
    await walletSection.getByLabel('Amount (USD)').fill('1');
    await walletSection.getByLabel('Why (the customer sees it)').fill('Sorry for the outage');
    await walletSection.getByRole('button', { name: 'Adjust' }).click();
    await expect(walletSection.getByTestId('admin-wallet-balance')).toHaveText('$6.01');

    await customer.goto('/wallet');
    await expect(customer.getByTestId('wallet-balance')).toHaveText('$6.01');
    await expect(customer.getByRole('listitem').filter({ hasText: 'Adjustment by support' })).toContainText('Sorry for the outage');
    await expect(customer.getByRole('listitem').filter({ hasText: 'Paid for a plan' })).toContainText('-$4.99');
  } finally {
    await panel.close();
  }
});
