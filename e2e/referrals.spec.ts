import type { Browser, Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail, type Site } from './site.js';

/** A visitor of their own: another browser, coming from `address` (the site trusts its proxy on 127.0.0.1, as behind nginx). */
async function visitor(browser: Browser, site: Site, address: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: site.baseURL, extraHTTPHeaders: { 'x-forwarded-for': address } });
  return context.newPage();
}

/** Buys `planName` from the dashboard, paying on the fake Stripe page with `card`. */
async function buy(page: Page, planName: string, card: string, payLabel: string): Promise<void> {
  const plan = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
  await plan.getByRole('button', { name: 'Buy' }).click();
  const dialog = page.getByRole('dialog', { name: `Buy ${planName}` });
  await dialog.getByRole('button', { name: payLabel }).click();
  await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);
  await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/thank-you\?session_id=cs_test_/);
  await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
}

/** A new admin on `page` with the fake panel as a server, a $10.00 plan (its name) and card payments on. */
async function openShop(page: Page, site: Site, panel: { url: string; admin: { username: string; password: string } }, prefix: string): Promise<string> {
  await signInAsNewAdmin(page, site, `admin-${prefix.toLowerCase()}`);
  const planName = `${prefix} ${Date.now()}`;
  await addServerAndPlan(page, site, panel, { name: planName, price: 1000 });
  expect(
    (await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } })).status(),
  ).toBe(200);
  return planName;
}

test('the admin runs a referral programme; a friend follows the link, pays less, and the referrer sees the credit; the same card is held', async ({
  page,
  browser,
  site,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await openShop(page, site, panel, 'Ten');

    // The operator's terms: 20 % of every payment for 3 months; the friend gets 10 % off the first payment.
    await page.goto('/admin/promotions');
    const section = page.getByRole('region', { name: 'Referrals' });
    await section.getByLabel('Referral programme on').check();
    await section.getByLabel('Percent of each payment').fill('20');
    await section.getByLabel('For how many months').fill('3');
    await section.getByLabel('The referred customer gets').selectOption('discount');
    await section.getByLabel('Discount, percent').fill('10');
    await section.getByRole('button', { name: 'Save referral settings' }).click();
    await expect(page.getByText('Referral settings saved')).toBeVisible();

    // The referrer finds their link on the dashboard's Invite friends page.
    const referrer = await visitor(browser, site, '10.20.0.1');
    const referrerEmail = uniqueEmail('referrer');
    await signIn(referrer, site, referrerEmail);
    await referrer.getByRole('link', { name: 'Invite friends' }).click();
    await expect(referrer).toHaveURL(/\/referrals$/);
    await expect(referrer.getByText('You earn 20% of every payment a friend makes in their first 3 months, as credit. It is recurring')).toBeVisible();
    await expect(referrer.getByText('Your friend gets 10% off their first payment.')).toBeVisible();
    await expect(referrer.getByRole('img', { name: 'QR code of your referral link' })).toBeVisible();
    const link = await referrer.getByRole('textbox', { name: 'Your link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${site.baseURL}/r/[A-Z2-9]{8}$`));
    await referrer.screenshot({ path: test.info().outputPath('referrals-page.png'), fullPage: true });

    // A friend follows it, signs up, and pays $9.00 instead of $10.00.
    const friend = await visitor(browser, site, '10.20.0.2');
    await friend.goto(link);
    await expect(friend).toHaveURL(`${site.baseURL}/`);
    await signIn(friend, site, uniqueEmail('friend'));
    const plan = friend.getByRole('listitem').filter({ has: friend.getByRole('heading', { name: planName }) });
    await plan.getByRole('button', { name: 'Buy' }).click();
    const dialog = friend.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(dialog.getByTestId('referral-discount')).toHaveText("Your friend's referral: $1.00 off your first payment.");
    await expect(dialog.getByTestId('price-after')).toHaveText('$9.00');
    await friend.screenshot({ path: test.info().outputPath('friend-dialog.png') });
    await friend.keyboard.press('Escape');
    await buy(friend, planName, '4000 0566 5566 5556', 'Pay $9.00 with card');

    // The referrer's credit: 20 % of $9.00, pending for the refund window.
    await referrer.reload();
    await expect(referrer.getByText('Signed up').locator('..')).toContainText('1');
    await expect(referrer.getByText('Pending credit').locator('..')).toContainText('$1.80');
    await expect(referrer.getByRole('row').filter({ hasText: 'Earned: a friend paid' })).toContainText('+$1.80');
    await referrer.screenshot({ path: test.info().outputPath('referrals-credit.png'), fullPage: true });

    // The referrer pays with a card, then a "friend" pays with the same card: held, and the admin sees why.
    await referrer.goto('/dashboard');
    await buy(referrer, planName, '4242 4242 4242 4242', 'Pay $10.00 with card');
    const secondAccount = await visitor(browser, site, '10.20.0.3');
    await secondAccount.goto(link);
    const farmerEmail = uniqueEmail('farmer');
    await signIn(secondAccount, site, farmerEmail);
    await buy(secondAccount, planName, '4242 4242 4242 4242', 'Pay $9.00 with card');

    await page.reload();
    await section.getByLabel('Show').selectOption('held');
    const held = section.getByRole('row').filter({ hasText: farmerEmail });
    await expect(held).toContainText('Held: same card');
    await expect(held).toContainText(referrerEmail);
    await page.screenshot({ path: test.info().outputPath('admin-held.png'), fullPage: true });
    await held.getByRole('button', { name: 'Void' }).click();
    await expect(page.getByText('Referral voided: its pending credit is cancelled')).toBeVisible();
    await referrer.goto('/referrals');
    await expect(referrer.getByText('Pending credit').locator('..')).toContainText('$1.80');
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test("the referrer's available credit pays part of their next payment: the dialog says how much, Stripe charges the rest, the history shows it", async ({
  page,
  browser,
  site,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await openShop(page, site, panel, 'Credit');
    const headers = { origin: site.baseURL };
    // No refund window: a friend's payment is credit at once.
    const programme = { enabled: true, referredBenefit: { kind: 'none' }, reward: { kind: 'percent', percent: 20, months: 3 }, refundWindowDays: 0 };
    expect((await page.request.put('/api/admin/referrals/settings', { data: programme, headers })).status()).toBe(200);

    const referrer = await visitor(browser, site, '10.21.0.1');
    await signIn(referrer, site, uniqueEmail('saver'));
    await referrer.goto('/referrals');
    const link = await referrer.getByRole('textbox', { name: 'Your link' }).inputValue();
    const friend = await visitor(browser, site, '10.21.0.2');
    await friend.goto(link);
    await signIn(friend, site, uniqueEmail('friend-credit'));
    await buy(friend, planName, '4000 0566 5566 5556', 'Pay $10.00 with card');

    await referrer.reload();
    await expect(referrer.getByText('Your balance', { exact: true }).locator('..')).toContainText('$2.00');
    await expect(referrer.getByText(/Available credit pays your next payments by itself/)).toContainText('at least $0.50');

    await referrer.goto('/dashboard');
    const plan = referrer.getByRole('listitem').filter({ has: referrer.getByRole('heading', { name: planName }) });
    await plan.getByRole('button', { name: 'Buy' }).click();
    const dialog = referrer.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(dialog.getByTestId('credit-used')).toHaveText('−$2.00');
    await referrer.screenshot({ path: test.info().outputPath('credit-dialog.png') });
    await referrer.keyboard.press('Escape');
    await buy(referrer, planName, '4242 4242 4242 4242', 'Pay $8.00 with card');

    await referrer.goto('/dashboard');
    await referrer.getByRole('button', { name: 'Transaction History' }).click();
    const history = referrer.getByRole('dialog', { name: 'Transaction History' });
    await expect(history.getByRole('row').filter({ hasText: planName }).first()).toContainText('$8.00');
    await expect(history.getByText('From balance: −$2.00')).toBeVisible();
    await referrer.screenshot({ path: test.info().outputPath('credit-history.png') });
    await referrer.goto('/referrals');
    // Nothing left: no figure.
    await expect(referrer.getByText('Your balance', { exact: true }).locator('..')).toHaveText('Your balance—');
    await expect(referrer.getByRole('row').filter({ hasText: 'Spent on a payment' })).toContainText('-$2.00');
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test('a friend referred with extra days sees them in the payment dialog and gets them on their first payment', async ({
  page,
  browser,
  site,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await openShop(page, site, panel, 'Days');
    const monthlyName = planName.replace('Days', 'Monthly');
    const monthly = await page.request.post('/api/admin/plans', {
      data: { name: monthlyName, days: 30, dataLimitBytes: 20 * 1024 ** 3, price: 500, billing: 'recurring' },
      headers: { origin: site.baseURL },
    });
    expect(monthly.status()).toBe(201);
    // The admin picks extra days in the Promotions tab.
    await page.goto('/admin/promotions');
    const section = page.getByRole('region', { name: 'Referrals' });
    await section.getByLabel('Referral programme on').check();
    await section.getByLabel('The referred customer gets').selectOption('days');
    await section.getByLabel('Extra days', { exact: true }).fill('7');
    await section.getByRole('button', { name: 'Save referral settings' }).click();
    await expect(page.getByText('Referral settings saved')).toBeVisible();

    const referrer = await visitor(browser, site, '10.22.0.1');
    await signIn(referrer, site, uniqueEmail('days-referrer'));
    await referrer.goto('/referrals');
    await expect(
      referrer.getByText('Your friend gets 7 extra days on their first purchase (on a card subscription, added to its first period).'),
    ).toBeVisible();
    const link = await referrer.getByRole('textbox', { name: 'Your link' }).inputValue();

    const friend = await visitor(browser, site, '10.22.0.2');
    await friend.goto(link);
    await signIn(friend, site, uniqueEmail('days-friend'));
    // On a card subscription the days lengthen its first period.
    const subscription = friend.getByRole('listitem').filter({ has: friend.getByRole('heading', { name: monthlyName }) });
    await subscription.getByRole('button', { name: 'Buy' }).click();
    const subscribing = friend.getByRole('dialog', { name: `Buy ${monthlyName}` });
    await expect(subscribing.getByTestId('referral-days')).toHaveText(
      "Your friend's referral: 7 extra days on your first period, so your first renewal is charged that much later.",
    );
    await expect(subscribing.getByText(/\+ 7 days/)).toBeVisible();
    await friend.screenshot({ path: test.info().outputPath('days-subscription-dialog.png') });
    await friend.keyboard.press('Escape');

    const plan = friend.getByRole('listitem').filter({ has: friend.getByRole('heading', { name: planName }) });
    await plan.getByRole('button', { name: 'Buy' }).click();
    const dialog = friend.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(dialog.getByTestId('referral-days')).toHaveText("Your friend's referral: 7 extra days with this payment.");
    await expect(dialog.getByText(/\+ 7 days/)).toBeVisible();
    await friend.screenshot({ path: test.info().outputPath('days-dialog.png') });
    await friend.keyboard.press('Escape');
    await buy(friend, planName, '4000 0566 5566 5556', 'Pay $10.00 with card');
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});
