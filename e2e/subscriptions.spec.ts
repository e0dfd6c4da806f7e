import type { APIRequestContext, Page } from '@playwright/test';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, FAKE_STRIPE_KEYS, signIn, test, uniqueEmail, type Site } from './site.js';

/**
 * Auto-renewing plans in the browser, as a customer meets them: buy a monthly plan, watch it renew
 * (the fake Stripe's test clock stands in for the months), a card that declines, cancel and resume,
 * and the billing portal. The admin sets up over the API; each test has its own admin (one code a minute).
 */
async function setUpShop(page: Page, site: Site, panel: FakeMarzneshin, admin: string, settings: object = {}): Promise<string> {
  await signIn(page, site, admin);
  const send = (request: APIRequestContext, method: 'post' | 'put', url: string, data: object) =>
    request[method](url, { data, headers: { origin: site.baseURL } });
  const server = await send(page.request, 'post', '/api/admin/servers', {
    kind: 'marzneshin',
    name: `Panel ${admin}`,
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
  });
  expect(server.status()).toBe(201);
  const planName = `Auto ${Date.now()}`;
  expect(
    (
      await send(page.request, 'post', '/api/admin/plans', { name: planName, days: 30, dataLimitBytes: 20 * 1024 ** 3, price: 499, billing: 'recurring' })
    ).status(),
  ).toBe(201);
  expect((await send(page.request, 'put', '/api/admin/payments/card', { enabled: true, ...FAKE_STRIPE_KEYS })).status()).toBe(200);
  if (Object.keys(settings).length > 0) expect((await send(page.request, 'put', '/api/admin/settings', settings)).status()).toBe(200);
  // Leave the dashboard first: signing out under its feet would fail its requests in flight (401s in the console).
  await page.goto('about:blank');
  await page.context().clearCookies();
  return planName;
}

/** Signs a new customer in and buys the plan; returns the panel username and the Stripe ids. */
async function subscribe(page: Page, site: Site, panel: FakeMarzneshin, planName: string) {
  const email = uniqueEmail('subscriber');
  await signIn(page, site, email);
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
  await expect(card.getByText('$4.99 billed every month, renews automatically; cancel any time')).toBeVisible();
  await card.getByRole('button', { name: 'Buy' }).click();
  const buy = page.getByRole('dialog', { name: `Buy ${planName}` });
  await expect(buy).toContainText('Renews automatically every month until you cancel.');
  await buy.getByRole('button', { name: 'Pay $4.99 with card' }).click();
  await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await expect(page).toHaveURL(/\/thank-you\?session_id=cs_test_/);
  await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
  const sessionId = new URL(page.url()).searchParams.get('session_id')!;
  const session = site.stripe.getSession(sessionId)!;
  const accountId = session.metadata!.vpn_account_id!;
  const username = [...panel.users.values()].map(asMarzneshinUser).find((u) => u.note === accountId)!.username;
  const customer = session.customer as string;
  return { email, username, accountId, customer, subscription: session.subscription as string, clock: site.stripe.getCustomer(customer)!.test_clock as string };
}

const expiryOf = (panel: FakeMarzneshin, username: string) => new Date(`${asMarzneshinUser(panel.users.get(username)).expire_date}Z`).getTime();

test('a monthly plan renews three times: the same account is extended each time, 4 payments and 4 receipts', async ({ page, site, consoleErrors }) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await setUpShop(page, site, panel, 'admin-renewals@example.com');
    const s = await subscribe(page, site, panel, planName);
    await page.keyboard.press('Escape');
    await expect(page.getByText(/^Renews on .+ · \$4\.99$/)).toBeVisible();
    await expect(page.getByRole('button', { name: `Renew ${s.username}`, exact: true })).toHaveCount(0);

    let expiry = expiryOf(panel, s.username);
    for (let renewal = 1; renewal <= 3; renewal += 1) {
      await site.stripe.advanceToNextRenewal(s.clock);
      await expect.poll(() => expiryOf(panel, s.username), { timeout: 15_000 }).toBeGreaterThan(expiry);
      expiry = expiryOf(panel, s.username);
    }
    expect(panel.users.size).toBe(1);

    await page.reload();
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const history = page.getByRole('dialog', { name: 'Transaction History' });
    await expect(history.getByRole('row').filter({ hasText: planName })).toHaveCount(4);
    await expect(history.getByRole('row').filter({ hasText: /succeeded/i })).toHaveCount(4);
    await expect.poll(() => site.smtp.messages.filter((m) => m.to.includes(s.email) && /receipt/i.test(m.subject)).length, { timeout: 15_000 }).toBe(4);
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});

test('a declined renewal: past due and a mail, the account paused; fixing the card in the portal turns it back on, extended', async ({ page, site }) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  try {
    // No grace period: the account is paused as soon as the renewal charge fails (the site is shared: the
    // tests after this one do not rely on the grace period).
    const planName = await setUpShop(page, site, panel, 'admin-dunning@example.com', { renewalGraceDays: 0 });
    const s = await subscribe(page, site, panel, planName);
    await page.keyboard.press('Escape');
    const paidUntil = expiryOf(panel, s.username);

    site.stripe.setCardDeclines(s.customer, true);
    await site.stripe.advanceToNextRenewal(s.clock);
    await expect.poll(() => asMarzneshinUser(panel.users.get(s.username)).enabled, { timeout: 15_000 }).toBe(false);
    await expect.poll(() => site.smtp.messages.filter((m) => m.to.includes(s.email) && /did not go through/i.test(m.subject)).length).toBe(1);
    await expect.poll(() => site.smtp.messages.filter((m) => m.to.includes(s.email) && /paused/i.test(m.subject)).length).toBe(1);

    await page.reload();
    await expect(page.getByText(/Payment failed/).first()).toBeVisible();
    await page.getByRole('button', { name: `Update card for ${s.username}` }).click();
    await expect(page).toHaveURL(/\/p\/session\/bps_/);
    site.stripe.setCardDeclines(s.customer, false);
    await page.getByRole('button', { name: 'Update card' }).click();
    await expect.poll(() => asMarzneshinUser(panel.users.get(s.username)).enabled, { timeout: 15_000 }).toBe(true);
    expect(expiryOf(panel, s.username)).toBeGreaterThan(paidUntil);
    await page.goto('/dashboard');
    await expect(page.getByText(/^Renews on .+ · \$4\.99$/)).toBeVisible();
  } finally {
    await panel.close();
  }
});

test('cancel auto-renew, resume, cancel again: no further charge, and the account ends with its paid period', async ({ page, site }) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await setUpShop(page, site, panel, 'admin-cancel@example.com');
    const s = await subscribe(page, site, panel, planName);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: `Cancel auto-renew ${s.username}` }).click();
    await page.getByRole('dialog', { name: 'Cancel auto-renew?' }).getByRole('button', { name: 'Cancel auto-renew' }).click();
    await expect(page.getByText(/^Auto-renew off — ends on /)).toBeVisible();
    expect(site.stripe.getSubscription(s.subscription)!.cancel_at_period_end).toBe(true);

    await page.getByRole('button', { name: `Resume ${s.username}` }).click();
    await expect(page.getByText(/^Renews on .+ · \$4\.99$/)).toBeVisible();
    expect(site.stripe.getSubscription(s.subscription)!.cancel_at_period_end).toBe(false);

    await page.getByRole('button', { name: `Cancel auto-renew ${s.username}` }).click();
    await page.getByRole('dialog', { name: 'Cancel auto-renew?' }).getByRole('button', { name: 'Cancel auto-renew' }).click();
    await expect(page.getByText(/^Auto-renew off — ends on /)).toBeVisible();
    const end = site.stripe.getSubscription(s.subscription)!.items.data[0]!.current_period_end;
    await expect.poll(() => expiryOf(panel, s.username), { timeout: 15_000 }).toBe(end * 1000);

    await site.stripe.advanceToNextRenewal(s.clock);
    expect(site.stripe.getSubscription(s.subscription)!.status).toBe('canceled');
    expect(site.stripe.listInvoices(s.subscription)).toHaveLength(1);
    await expect.poll(() => site.smtp.messages.filter((m) => m.to.includes(s.email) && /cancel/i.test(m.subject)).length).toBeGreaterThanOrEqual(1);
    expect(expiryOf(panel, s.username)).toBe(end * 1000);

    // Manage billing opens Stripe's customer portal.
    await page.reload();
    await page.getByRole('button', { name: 'Transaction History' }).click();
    await expect(
      page
        .getByRole('dialog', { name: 'Transaction History' })
        .getByRole('row')
        .filter({ hasText: /succeeded/i }),
    ).toHaveCount(1);
  } finally {
    await panel.close();
  }
});

test('Manage billing opens the portal; the admin sees the subscription and the revenue, and cancels it now', async ({ browser, page, site }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await setUpShop(page, site, panel, 'admin-portal@example.com');
    const s = await subscribe(page, site, panel, planName);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Manage billing ${s.username}` }).click();
    await expect(page).toHaveURL(/\/p\/session\/bps_/);
    await expect(page.getByRole('button', { name: 'Update card' })).toBeVisible();
    await page.getByRole('link', { name: 'Return to the store' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    const adminContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const admin = await adminContext.newPage();
    await signIn(admin, site, 'admin-subscriptions@example.com');
    await admin.goto('/admin');
    // A Stripe endpoint left on an API version too old to read: its event is refused, and the System tab says so.
    const paid = site.stripe.events.find((e) => e.type === 'invoice.paid' && e.data.object.customer === s.customer)!;
    expect(await site.stripe.deliver(paid, { apiVersion: '2023-10-16' })).toBe(422);
    await admin.getByRole('tab', { name: 'System' }).click();
    await expect(admin.getByText('Monthly recurring revenue')).toBeVisible();
    await expect(admin.getByRole('alert')).toContainText('Stripe webhook events in API version 2023-10-16 could not be read: 1 event, last seen');
    // Read in the SDK's version again (a duplicate, applied before), the alert is over.
    expect(await site.stripe.deliver(paid)).toBe(200);
    await admin.getByRole('tab', { name: 'Payments' }).click();
    await admin.getByLabel('Search subscriptions by e-mail').fill(s.email);
    const table = admin.getByRole('table', { name: 'Subscriptions' });
    await expect(table.getByRole('row').filter({ hasText: s.email })).toHaveCount(1);
    await table.getByRole('button', { name: `Cancel now ${s.email} ${planName}` }).click();
    await admin.getByRole('dialog', { name: 'Cancel subscription now' }).getByRole('button', { name: 'Cancel now' }).click();
    // The status badge (the row's buttons also say "Cancel", never "Canceled").
    await expect(table.getByRole('row').filter({ hasText: s.email })).toContainText(/Cancell?ed/);
    await expect.poll(() => site.stripe.getSubscription(s.subscription)!.status).toBe('canceled');
    await adminContext.close();
  } finally {
    await panel.close();
  }
});

test('the admin sets the renewal grace period, reminders and data retention in Settings; a value out of range is refused', async ({ page, site }) => {
  await signIn(page, site, 'admin-settings@example.com');
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Renewals and balance' }).click();
  const grace = page.getByLabel('Grace period (days)');
  const before = (await (await page.request.get('/api/admin/settings')).json()).renewalGraceDays as number;
  // Out of range: the browser's own check stops the form, and nothing is saved.
  await grace.fill('45');
  await page.getByRole('button', { name: 'Save renewal settings' }).click();
  expect(await grace.evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)).toBe(true);
  expect(await (await page.request.get('/api/admin/settings')).json()).toMatchObject({ renewalGraceDays: before });
  await grace.fill('5');
  await page.getByLabel('Send renewal reminders').uncheck();
  await page.getByRole('button', { name: 'Save renewal settings' }).click();
  await expect(page.getByText('Renewal settings updated')).toBeVisible();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Sign-in and data' }).click();
  await page.getByLabel('Audit log (days)').fill('400');
  await page.getByRole('button', { name: 'Save data retention' }).click();
  await expect(page.getByText('Data retention updated')).toBeVisible();
  const saved = await (await page.request.get('/api/admin/settings')).json();
  expect(saved).toMatchObject({ renewalGraceDays: 5, renewalReminders: false, auditRetentionDays: 400 });
  await page.request.put('/api/admin/settings', {
    data: { renewalGraceDays: 3, renewalReminders: true, auditRetentionDays: 365 },
    headers: { origin: site.baseURL },
  });
});
