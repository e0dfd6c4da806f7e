import type { APIRequestContext, Page } from '@playwright/test';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, FAKE_STRIPE_KEYS, signIn, signInWithCode, test, uniqueEmail, waitForHydration, type Site } from './site.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The admin adds the panel server and a paid plan over the API, and turns card payments on in Settings
 * (the UI), then signs out unless `stayAs` (the page stays the admin's). Each admin signs in once a
 * minute at most (the code's resend cool-down), so each test has its own.
 */
async function setUpShop(page: Page, site: Site, panel: FakeMarzneshin, planName: string, admin = 'admin-payments@example.com', stayAs = false): Promise<void> {
  await signIn(page, site, admin);
  const post = (request: APIRequestContext, url: string, data: object) => request.post(url, { data, headers: { origin: site.baseURL } });
  const server = await post(page.request, '/api/admin/servers', {
    kind: 'marzneshin',
    name: `Panel ${planName}`,
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
  });
  expect(server.status()).toBe(201);
  expect((await post(page.request, '/api/admin/plans', { name: planName, days: 30, dataLimitBytes: 20 * 1024 ** 3, price: 499 })).status()).toBe(201);

  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payment providers' }).click();
  const stripe = page.getByRole('region', { name: 'Card payments (Stripe)' });
  await stripe.getByLabel('Publishable key').fill(FAKE_STRIPE_KEYS.publishableKey);
  await stripe.getByLabel('Secret key', { exact: true }).fill(FAKE_STRIPE_KEYS.secretKey);
  await stripe.getByLabel('Webhook signing secret', { exact: true }).fill(FAKE_STRIPE_KEYS.webhookSecret);
  await stripe.getByLabel('Accept card payments').check();
  await stripe.getByRole('button', { name: 'Save Stripe settings' }).click();
  await expect(page.getByText('Stripe settings updated')).toBeVisible();
  // Write-only: the secrets are not put back into the form.
  await expect(stripe.getByLabel('Secret key', { exact: true })).toHaveValue('');
  if (!stayAs) await page.context().clearCookies();
}

/** Pays on the fake Stripe Checkout page and waits to be back on /thank-you with the setup dialog open. */
async function payOnCheckoutPage(page: Page, price = '$4.99') {
  await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);
  await page.getByRole('button', { name: `Pay ${price}` }).click();
  await expect(page).toHaveURL(/\/thank-you\?session_id=cs_test_/);
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  const dialog = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Payment successful! Your account is ready.')).toBeVisible();
  return dialog;
}

test('a customer buys a plan by card, gets a working account, sees it in the history, and renews it', async ({ page, site, context, consoleErrors }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = `Plus ${Date.now()}`;
    await setUpShop(page, site, panel, planName);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);

    await signIn(page, site, uniqueEmail('buyer'));
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    const buy = page.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(buy).toContainText('$4.99');
    await buy.getByRole('button', { name: 'Pay $4.99 with card' }).click();

    const setup = await payOnCheckoutPage(page);
    const sessionId = new URL(page.url()).searchParams.get('session_id');
    await setup.getByRole('button', { name: /copy/i }).first().click();
    const combinedUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(combinedUrl).toMatch(new RegExp(`^${site.baseURL}/sub/[\\w-]{20,}$`));
    const config = await page.request.get(combinedUrl, { headers: { 'user-agent': 'v2rayNG/1.8.5' } });
    expect(config.status()).toBe(200);
    expect(Buffer.from(await config.text(), 'base64').toString()).toMatch(/^vless:\/\//m);
    const [username] = [...panel.users.keys()];
    expect(panel.users.size).toBe(1);

    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('rowheader', { name: new RegExp(`^${username}`) })).toBeVisible();
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const history = page.getByRole('dialog', { name: 'Transaction History' });
    await expect(history.getByRole('row').filter({ hasText: planName })).toContainText('$4.99');
    await expect(history.getByRole('row').filter({ hasText: planName })).toContainText(/succeeded/i);
    await page.keyboard.press('Escape');

    // Renew: the same panel user, 30 more days.
    const expiryBefore = new Date(asMarzneshinUser(panel.users.get(username!)).expire_date!).getTime();
    await page.getByRole('button', { name: `Renew ${username}` }).click();
    await page
      .getByRole('dialog', { name: `Renew ${planName}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await payOnCheckoutPage(page);
    expect(panel.users.size).toBe(1);
    const expiryAfter = new Date(asMarzneshinUser(panel.users.get(username!)).expire_date!).getTime();
    expect(Math.abs(expiryAfter - expiryBefore - 30 * DAY_MS)).toBeLessThan(60_000);

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Transaction History' }).click();
    await expect(page.getByRole('dialog', { name: 'Transaction History' }).getByRole('row').filter({ hasText: planName })).toHaveCount(2);
    await page.keyboard.press('Escape');

    // The dashboard handles a return from checkout the same way: it confirms, opens the dialog, and drops session_id.
    await page.goto(`/dashboard?session_id=${sessionId}`);
    await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test('from the pricing page: Get Plus for a year, sign in, pay exactly that price, and get the account', async ({ page, site, consoleErrors }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    await setUpShop(page, site, panel, `Shop ${Date.now()}`, 'admin-shop@example.com');
    await page.goto('/pricing');
    await waitForHydration(page); // the period buttons work once the page has hydrated
    await page.getByRole('group', { name: 'Billing period' }).getByRole('button', { name: '1 year' }).click();
    const plus = page.getByRole('article', { name: 'Plus', exact: true });
    await expect(plus.getByText('$83.88 billed every year, renews automatically; cancel any time', { exact: true })).toBeVisible();
    await plus.getByRole('link', { name: 'Get Plus' }).click();

    const email = uniqueEmail('from-pricing');

    await signInWithCode(page, site, email);

    const buy = page.getByRole('dialog', { name: 'Buy Plus 1 Year' });
    await buy.getByRole('button', { name: 'Pay $83.88 with card' }).click();
    await payOnCheckoutPage(page, '$83.88');
    const sessionId = new URL(page.url()).searchParams.get('session_id')!;
    expect(site.stripe.getSession(sessionId)).toMatchObject({ amount_total: 8388, currency: 'usd' });
    expect(panel.users.size).toBe(1);
    const [user] = [...panel.users.values()].map(asMarzneshinUser);
    // A plan that renews by itself: the account runs to the paid year's end plus the 3-day grace period.
    const paidEnd = site.stripe.getSubscription(site.stripe.getSession(sessionId)!.subscription as string)!.items.data[0]!.current_period_end * 1000;
    expect((paidEnd - Date.now()) / DAY_MS).toBeCloseTo(365, 0);
    expect(new Date(`${user!.expire_date!}Z`).getTime()).toBe(paidEnd + 3 * DAY_MS);
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test('the admin refunds a payment from the Payments tab: the customer sees Refunded and the account is paused', async ({
  browser,
  page,
  site,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = `Refundable ${Date.now()}`;
    const adminContext = await browser.newContext({ baseURL: site.baseURL });
    const admin = await adminContext.newPage();
    await setUpShop(admin, site, panel, planName, 'admin-refunds@example.com', true);
    const buyer = uniqueEmail('refunded');
    await signIn(page, site, buyer);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    await page
      .getByRole('dialog', { name: `Buy ${planName}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await payOnCheckoutPage(page);
    const [username] = [...panel.users.keys()];

    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Payments' }).click();
    const row = admin.getByRole('row').filter({ hasText: buyer });
    await expect(row).toContainText('Succeeded');
    await row.getByRole('button', { name: /^Refund/ }).click();
    const dialog = admin.getByRole('dialog', { name: 'Refund payment' });
    await expect(dialog).toContainText(buyer);
    const mailsBefore = site.smtp.messages.length;
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await expect(admin.getByText('Payment refunded')).toBeVisible();
    await expect(row).toContainText('Refunded');
    await expect(row.getByRole('button', { name: /^Refund/ })).toHaveCount(0);
    const mail = await site.smtp.waitFor(buyer, { after: mailsBefore });
    expect(mail.subject).toContain('your payment was refunded');
    await expect.poll(() => asMarzneshinUser(panel.users.get(username!)).enabled, { timeout: 15_000 }).toBe(false);
    await adminContext.close();

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const history = page.getByRole('dialog', { name: 'Transaction History' });
    await expect(history.getByRole('row').filter({ hasText: planName })).toContainText('Refunded');
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test('a customer who cancels on the payment page is back on the dashboard with "Payment cancelled", no account row, and Cancelled (not Failed) in both histories', async ({
  browser,
  page,
  site,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = `Cancel ${Date.now()}`;
    const adminContext = await browser.newContext({ baseURL: site.baseURL });
    const admin = await adminContext.newPage();
    await setUpShop(admin, site, panel, planName, 'admin-checkout-cancel@example.com', true);
    const canceller = uniqueEmail('canceller');
    await signIn(page, site, canceller);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    await page
      .getByRole('dialog', { name: `Buy ${planName}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);

    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Payment cancelled')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Your VPN accounts' })).toHaveCount(0);
    await expect(page.getByText('Awaiting Payment')).toHaveCount(0);
    expect(panel.users.size).toBe(0);

    await page.getByRole('button', { name: 'Transaction History' }).click();
    const history = page.getByRole('dialog', { name: 'Transaction History' });
    await expect(history.getByRole('row').filter({ hasText: planName })).toContainText('Cancelled');
    await expect(history.getByRole('row').filter({ hasText: planName })).not.toContainText('Failed');

    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Payments' }).click();
    await admin.getByLabel('Status', { exact: true }).selectOption({ label: 'Cancelled' });
    const row = admin.getByRole('row').filter({ hasText: canceller });
    await expect(row).toContainText('Cancelled');
    await admin.getByLabel('Status', { exact: true }).selectOption({ label: 'Failed' });
    await expect(admin.getByRole('row').filter({ hasText: canceller })).toHaveCount(0);
    await adminContext.close();
  } finally {
    await panel.close();
  }
});
