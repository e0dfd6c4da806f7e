import type { Browser, Page } from '@playwright/test';
import { REFERRAL_DEFAULTS } from '../shared/referrals.js';
import { expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail, waitForHydration, type Site } from './site.js';

/** A visitor of their own: another browser, from its own address. */
async function visitor(browser: Browser, site: Site, address: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: site.baseURL, extraHTTPHeaders: { 'x-forwarded-for': address } });
  return context.newPage();
}

/**
 * A friend who arrives through a referral link is told so on the landing page and at checkout, with what the
 * programme gives them (in the page's language), and nothing is promised when it gives nothing.
 */
test('a referred friend is told "Invited by a friend: +7 days on your first plan" on the landing page and at checkout', async ({ page, browser, site }) => {
  test.setTimeout(180_000);
  await signInAsNewAdmin(page, site, 'admin-invitation');
  const put = (url: string, data: object) => page.request.put(url, { data, headers: { origin: site.baseURL } });
  const settings = (referredBenefit: object) =>
    put('/api/admin/referrals/settings', { ...REFERRAL_DEFAULTS, enabled: true, referredBenefit, reward: { kind: 'percent', percent: 10, months: 12 } });
  expect((await settings({ kind: 'days', days: 7 })).status()).toBe(200);
  expect((await put('/api/admin/payments/card', { enabled: true, ...FAKE_STRIPE_KEYS })).status()).toBe(200);
  try {
    const referrer = await visitor(browser, site, '10.30.0.1');
    await signIn(referrer, site, uniqueEmail('inviter'));
    const { link } = (await (await referrer.request.get('/api/referrals/me')).json()) as { link: string };

    // Someone who came on their own is told nothing.
    const stranger = await visitor(browser, site, '10.30.0.3');
    await stranger.goto('/');
    await waitForHydration(stranger);
    await stranger.waitForLoadState('networkidle');
    await expect(stranger.getByText('Invited by a friend')).toHaveCount(0);

    const friend = await visitor(browser, site, '10.30.0.2');
    await friend.goto(link);
    await expect(friend).toHaveURL(`${site.baseURL}/`);
    await expect(friend.getByText('Invited by a friend: +7 days on your first plan', { exact: true })).toBeVisible();
    await friend.screenshot({ path: test.info().outputPath('invited-landing.png') });
    for (const [prefix, text] of [
      ['/ru', 'Вас пригласил друг: +7 дней к первому тарифу'],
      ['/fa', 'به دعوت یک دوست: ۷ روز بیشتر روی نخستین طرح شما'],
      ['/zh', '好友邀请：首个套餐额外赠送 7 天'],
    ] as const) {
      await friend.goto(`${prefix}/`);
      await expect(friend.getByText(text, { exact: true })).toBeVisible();
    }

    // At checkout, signed in: the same, until the first payment.
    await signIn(friend, site, uniqueEmail('invited'));
    await friend.getByRole('button', { name: 'Buy' }).first().click();
    const dialog = friend.getByRole('dialog', { name: /^Buy / });
    await expect(dialog.getByText('Invited by a friend: +7 days on your first plan', { exact: true })).toBeVisible();
    await friend.screenshot({ path: test.info().outputPath('invited-checkout.png') });

    // A programme that gives the friend nothing: only the invitation, no promise.
    expect((await settings({ kind: 'none' })).status()).toBe(200);
    const other = await visitor(browser, site, '10.30.0.4');
    await other.goto(link);
    await expect(other.getByText('Invited by a friend', { exact: true })).toBeVisible();
    await expect(other.getByText(/Invited by a friend:/)).toHaveCount(0);
  } finally {
    await put('/api/admin/referrals/settings', REFERRAL_DEFAULTS);
  }
});
