import type { Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_CRYPTOPAY, FAKE_YOOKASSA, signIn, signInAsNewAdmin, test, uniqueEmail, type Site } from './site.js';

/** Buys the plan from the dashboard with the pay button `payName`, on a fresh customer's page. */
async function startPurchase(page: Page, site: Site, planName: string, payName: string | RegExp): Promise<void> {
  await signIn(page, site, uniqueEmail('local-buyer'));
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
  await card.getByRole('button', { name: 'Buy' }).click();
  const buy = page.getByRole('dialog', { name: `Buy ${planName}` });
  await buy.getByRole('button', { name: payName }).click();
}

/** Back on /thank-you: the account is ready, with a subscription link that serves a configuration. */
async function expectAccountReady(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/thank-you\?session_id=/);
  const setup = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
  await expect(setup).toBeVisible({ timeout: 15_000 });
  await setup.getByRole('button', { name: /copy/i }).first().click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const config = await page.request.get(link, { headers: { 'user-agent': 'v2rayNG/1.8.5' } });
  expect(config.status()).toBe(200);
  await page.keyboard.press('Escape');
}

/** The other tests of this worker share the site: dollars, and YooKassa off (the public settings follow within seconds). */
async function sellInDollarsAgain(site: Site): Promise<void> {
  await site.database.db('payment_providers').where({ name: 'yookassa' }).update({ enabled: false });
  const stored = await site.database.db('settings').where({ id: 'app_config' }).first();
  if (stored) {
    const value = typeof stored.value === 'string' ? JSON.parse(stored.value) : stored.value;
    await site.database
      .db('settings')
      .where({ id: 'app_config' })
      .update({ value: JSON.stringify({ ...value, currency: 'usd' }) });
  }
}

async function historyRow(page: Page, planName: string) {
  await page.getByRole('button', { name: 'Transaction History' }).click();
  return page.getByRole('dialog', { name: 'Transaction History' }).getByRole('row').filter({ hasText: planName });
}

test('the admin sets up YooKassa in a rouble store; a customer pays by card on YooKassa and gets a working account', async ({ page, site, context }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const planName = `Rouble ${Date.now()}`;
  try {
    await signIn(page, site, 'admin-yookassa@example.com');
    await addServerAndPlan(page, site, panel, { name: planName, price: 29900 });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payment providers' }).click();
    const yookassa = page.getByRole('region', { name: 'YooKassa (roubles: cards and SBP)' });
    // A dollar store: the form says YooKassa takes roubles only.
    await expect(yookassa.getByRole('note')).toContainText('roubles only');
    await yookassa.getByLabel('Shop ID (shopId)').fill(FAKE_YOOKASSA.shopId);
    await yookassa.getByLabel('Secret key', { exact: true }).fill('test_notTheShopsKey');
    await yookassa.getByLabel('Accept payments through YooKassa').check();
    await yookassa.getByRole('button', { name: 'Save YooKassa settings' }).click();
    await expect(yookassa.getByRole('alert')).toContainText('Could not read the shop');
    await yookassa.getByLabel('Secret key', { exact: true }).fill(FAKE_YOOKASSA.secretKey);
    await yookassa.getByRole('button', { name: 'Save YooKassa settings' }).click();
    await expect(page.getByText('YooKassa settings updated')).toBeVisible();
    await expect(yookassa.getByLabel('Secret key', { exact: true })).toHaveValue('');
    expect((await page.request.put('/api/admin/settings', { data: { currency: 'rub' }, headers: { origin: site.baseURL } })).status()).toBe(200);
    await page.context().clearCookies();

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await startPurchase(page, site, planName, /^Pay .*299\.00 by card or SBP$/);
    await expect(page).toHaveURL(new RegExp(`^${site.yookassa.url}/checkout/`));
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await expectAccountReady(page);
    const row = await historyRow(page, planName);
    await expect(row).toContainText('Card or SBP');
    await expect(row).toContainText(/succeeded/i);
  } finally {
    await sellInDollarsAgain(site);
    await panel.close();
  }
});

test('a monthly plan bought through YooKassa renews with the saved card; the customer removes the card and auto-renew goes off', async ({
  page,
  site,
  context,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const planName = `Rouble monthly ${Date.now()}`;
  try {
    await signInAsNewAdmin(page, site, 'admin-yookassa-monthly');
    await addServerAndPlan(page, site, panel, { name: planName, price: 19900, billing: 'recurring' });
    const put = (url: string, data: object) => page.request.put(url, { data, headers: { origin: site.baseURL } });
    expect((await put('/api/admin/payments/yookassa', { enabled: true, shopId: FAKE_YOOKASSA.shopId, secretKey: FAKE_YOOKASSA.secretKey })).status()).toBe(200);
    expect((await put('/api/admin/settings', { currency: 'rub' })).status()).toBe(200);
    await page.context().clearCookies();

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await startPurchase(page, site, planName, /^Pay .*199\.00 by card or SBP$/);
    await page.getByRole('button', { name: 'Pay by card' }).click();
    await expectAccountReady(page);
    // Charged three days before the period ends, with the card the first payment saved; there is no billing portal.
    const row = page.getByRole('row').filter({ hasText: planName });
    await expect(row).toContainText(/Next charge .* · .*199\.00 · Bank card \*4444/);
    await expect(row.getByRole('button', { name: /Manage billing/ })).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('renews-with-card.png') });

    await row.getByRole('button', { name: /Remove card/ }).click();
    const question = page.getByRole('dialog', { name: 'Remove the saved card?' });
    await expect(question).toContainText('Bank card *4444 will never be charged again');
    await question.getByRole('button', { name: 'Remove card' }).click();
    await expect(page.getByText('The card was removed. Your plan will not renew automatically.')).toBeVisible();
    await expect(row).toContainText('Auto-renew off');
    await expect(row.getByRole('button', { name: /Remove card/ })).toHaveCount(0);
    // Without a card, Resume is refused in words the customer can act on.
    await row.getByRole('button', { name: /Resume/ }).click();
    await expect(page.getByText('There is no saved card to renew with.')).toBeVisible();
  } finally {
    await sellInDollarsAgain(site);
    await panel.close();
  }
});

test('the admin sets up Crypto Pay; a customer pays in USDT on its invoice page and comes back to a working account', async ({ page, site, context }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const planName = `Coins ${Date.now()}`;
  try {
    await signIn(page, site, 'admin-cryptopay@example.com');
    await addServerAndPlan(page, site, panel, { name: planName, price: 499 });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payment providers' }).click();
    const cryptopay = page.getByRole('region', { name: 'Crypto Pay (USDT, TON)' });
    await cryptopay.getByLabel('Network').selectOption('testnet');
    await cryptopay.getByLabel('API token', { exact: true }).fill(FAKE_CRYPTOPAY.token);
    await cryptopay.getByLabel('Accept payments through Crypto Pay').check();
    await cryptopay.getByRole('button', { name: 'Save Crypto Pay settings' }).click();
    await expect(page.getByText('Crypto Pay settings updated')).toBeVisible();
    await expect(cryptopay.getByText(/Connected to the app/)).toBeVisible();
    await page.context().clearCookies();

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await startPurchase(page, site, planName, 'Pay $4.99 with Crypto Pay');
    await expect(page).toHaveURL(new RegExp(`^${site.cryptopay.url}/invoices/`));
    await page.getByRole('button', { name: /^Pay .* USDT$/ }).click();
    await page.getByRole('link', { name: 'Return to the merchant' }).click();
    await expectAccountReady(page);
    const row = await historyRow(page, planName);
    await expect(row).toContainText('Crypto Pay');
  } finally {
    await site.database.db('payment_providers').where({ name: 'cryptopay' }).update({ enabled: false });
    await panel.close();
  }
});
