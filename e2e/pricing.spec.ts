import type { Page } from '@playwright/test';
import { expect, FAKE_STRIPE_KEYS, signIn, signInWithCode, test, uniqueEmail, waitForHydration, type Site } from './site.js';

/**
 * The spec's numbers, written out by hand: per month, what is charged, badge. The site's plans are
 * those of a fresh install (e2e/site.ts seeds them as the first start does).
 */
const EXPECTED = {
  '2 years': {
    Basic: ['$3.99', '$95.76 billed every 2 years, renews automatically; cancel any time', 'Save 69%'],
    Plus: ['$4.99', '$119.76 billed every 2 years, renews automatically; cancel any time', 'Save 64%'],
    Complete: ['$5.99', '$143.76 billed every 2 years, renews automatically; cancel any time', 'Save 60%'],
  },
  '1 year': {
    Basic: ['$5.99', '$71.88 billed every year, renews automatically; cancel any time', 'Save 54%'],
    Plus: ['$6.99', '$83.88 billed every year, renews automatically; cancel any time', 'Save 50%'],
    Complete: ['$7.99', '$95.88 billed every year, renews automatically; cancel any time', 'Save 47%'],
  },
  '1 month': {
    Basic: ['$12.99', '$12.99 billed every month, renews automatically; cancel any time', null],
    Plus: ['$13.99', '$13.99 billed every month, renews automatically; cancel any time', null],
    Complete: ['$14.99', '$14.99 billed every month, renews automatically; cancel any time', null],
  },
} as const;

/**
 * Card payments on (the admin saves the fake Stripe's keys over the API), unless an earlier test in
 * this worker did it already: a second code for the same admin within a minute is not sent.
 */
async function enableCardPayments(page: Page, site: Site): Promise<void> {
  const config = await page.request.get('/api/config');
  if ((await config.json()).cardPaymentsEnabled) return;
  await signIn(page, site, 'admin-payments@example.com');
  const res = await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } });
  expect(res.status()).toBe(200);
  await page.goto('about:blank'); // the dashboard's requests end before the session does
  await page.context().clearCookies();
}

test("the pricing toggle shows the plans' prices, what is charged and savings for each period", async ({ page, consoleErrors }) => {
  const planRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/plans') planRequests.push(request.url());
  });
  await page.goto('/pricing');
  await waitForHydration(page); // the period buttons work once the page has hydrated
  await expect(page.getByRole('button', { name: '2 years' })).toHaveAttribute('aria-pressed', 'true');
  const toggle = page.getByRole('group', { name: 'Billing period' });
  await expect(toggle.getByRole('button')).toHaveText(['2 years', '1 year', '1 month']);
  for (const [period, tiers] of Object.entries(EXPECTED)) {
    await toggle.getByRole('button', { name: period }).click();
    await expect(toggle.getByRole('button', { name: period })).toHaveAttribute('aria-pressed', 'true');
    for (const [tier, [perMonth, billed, badge]] of Object.entries(tiers)) {
      const card = page.getByRole('article', { name: tier, exact: true });
      await expect(card.getByText(perMonth, { exact: true })).toBeVisible();
      await expect(card.getByText(billed, { exact: true })).toBeVisible();
      if (badge) await expect(card.getByText(badge, { exact: true })).toBeVisible();
      else await expect(card.getByText(/^Save \d+%$/)).toHaveCount(0);
      await expect(card.getByText('Most Popular')).toHaveCount(tier === 'Plus' ? 1 : 0);
    }
  }
  await expect(page.getByText(/Anti-malware|cloud storage/i)).toHaveCount(0);
  // The prices came with the page: nothing was fetched to draw them, and hydration kept the HTML.
  expect(planRequests).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test('the page as served (no script run) holds every tier, plan and price', async ({ request }) => {
  const res = await request.get('/pricing');
  expect(res.status()).toBe(200);
  const text = (await res.text()).replace(/<!--[\s\S]*?-->/g, '');
  for (const tier of ['Complete', 'Plus', 'Basic']) {
    expect(text).toContain(`>${tier}</h3>`);
    for (const period of ['1 Month', '1 Year', '2 Years']) expect(text).toContain(`${tier} ${period}`);
  }
  for (const price of ['$4.99', '$119.76', '$6.99', '$83.88', '$13.99', '$95.76', '$143.76', '$14.99']) expect(text).toContain(price);
  expect(text).toContain('Most Popular');
  expect(text).not.toMatch(/Anti-malware|1 TB cloud storage|renew automatically unless/i);
});

test('Get, signed out: sign in with the e-mailed code, then the payment dialog for exactly that plan', async ({ page, site, consoleErrors }) => {
  await enableCardPayments(page, site);

  await page.goto('/pricing');
  await waitForHydration(page); // the period buttons work once the page has hydrated
  await page.getByRole('group', { name: 'Billing period' }).getByRole('button', { name: '1 year' }).click();
  await page.getByRole('article', { name: 'Plus', exact: true }).getByRole('link', { name: 'Get Plus' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%3Fplan%3D[\w-]+$/);

  const email = uniqueEmail('pricing');

  await signInWithCode(page, site, email);

  const dialog = page.getByRole('dialog', { name: 'Buy Plus 1 Year' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('$83.88');
  await expect(dialog.getByRole('button', { name: 'Pay $83.88 with card' })).toBeVisible();
  // The parameter is dropped once used: a reload does not open the dialog again.
  await expect(page).toHaveURL(/\/dashboard$/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Available Plans' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('Get, signed in: straight to the payment dialog; a plan no longer on sale says so', async ({ page, site }) => {
  await enableCardPayments(page, site);
  await signIn(page, site, uniqueEmail('member'));

  await page.goto('/pricing');
  await page.getByRole('link', { name: 'Get Complete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy Complete 2 Years' });
  await expect(dialog).toContainText('$143.76');
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard?plan=not-a-plan');
  await expect(page.getByText('That plan is no longer on sale. Please choose one of the plans below.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a signed-out visit to a plan link keeps it through sign-in; a target off the site is ignored', async ({ page, site }) => {
  await page.goto('/dashboard?plan=some-plan');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%3Fplan%3Dsome-plan$/);

  await page.goto('/login?next=//evil.example/steal');
  const email = uniqueEmail('nexter');
  await signInWithCode(page, site, email);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
});
