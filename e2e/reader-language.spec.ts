import type { APIRequestContext, Page } from '@playwright/test';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail, type Site } from './site.js';

/**
 * What a reader of each language sees of their own plan (issue 57): the plan named in their language in
 * the dialogs and lists even once it is off sale, status pills and the subscription link on one line in
 * Chinese, and Persian pages with Persian digits, data units in words, a separator that is no Persian
 * zero and a back arrow that points the way back (right, on a right-to-left page).
 */

const send = (site: Site, request: APIRequestContext, method: 'post' | 'put' | 'patch', url: string, data: object) =>
  request[method](url, { data, headers: { origin: site.baseURL } });

/** An admin, the fake panel as a server, a monthly recurring plan named in Chinese and Persian, card payments on. */
async function setUpShop(page: Page, site: Site, panel: FakeMarzneshin, tag: string): Promise<{ planId: string; planName: string }> {
  await signInAsNewAdmin(page, site, `admin-reader-${tag}`);
  const planName = `Family Month ${tag}`;
  const planId = await addServerAndPlan(page, site, panel, {
    name: planName,
    price: 499,
    billing: 'recurring',
    translations: { 'zh-CN': { name: `家庭版月付 ${tag}` }, fa: { name: `خانواده ماهانه ${tag}` } },
  });
  expect((await send(site, page.request, 'put', '/api/admin/payments/card', { enabled: true, ...FAKE_STRIPE_KEYS })).status()).toBe(200);
  return { planId, planName };
}

/** A new customer on `page` buys the plan by card; returns the account's panel username. */
async function subscribe(page: Page, site: Site, panel: FakeMarzneshin, planName: string): Promise<string> {
  await page.goto('about:blank');
  await page.context().clearCookies();
  await signIn(page, site, uniqueEmail('reader'));
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
  await card.getByRole('button', { name: 'Buy' }).click();
  await page
    .getByRole('dialog', { name: `Buy ${planName}` })
    .getByRole('button', { name: 'Pay $4.99 with card' })
    .click();
  await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);
  await page.getByRole('button', { name: 'Pay $4.99' }).click();
  await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
  const session = site.stripe.getSession(new URL(page.url()).searchParams.get('session_id')!)!;
  const accountId = session.metadata!.vpn_account_id!;
  return [...panel.users.values()].map(asMarzneshinUser).find((user) => user.note === accountId)!.username;
}

/** The boxes of `selector` inside `scope` that take more than one line of their own text. */
async function wrapped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements
      .filter((element) => (element as HTMLElement).checkVisibility())
      .flatMap((element) => {
        const style = getComputedStyle(element);
        const line = parseFloat(style.lineHeight);
        const inner = element.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        return inner > line * 1.5 ? [`"${element.textContent}" is ${Math.round(inner)} px high (one line: ${line} px)`] : [];
      }),
  );
}

test('a Chinese and a Persian reader of an auto-renewing plan taken off sale: their language, on one line, with their digits', async ({ page, site }) => {
  test.setTimeout(120_000);
  const panel = await startFakeMarzneshin();
  try {
    const tag = `${Date.now()}`.slice(-6);
    const { planId, planName } = await setUpShop(page, site, panel, tag);
    const username = await subscribe(page, site, panel, planName);
    // The operator takes the plan off sale: the customer's plan keeps its Chinese name.
    await site.database.db('plans').where({ id: planId }).update({ status: 'disabled' });

    await page.goto('/zh/dashboard');
    const row = page.getByRole('row').filter({ hasText: username });
    await expect(row).toContainText(`家庭版月付 ${tag}`);
    await expect(page.locator('main')).not.toContainText(planName);
    // Status pills and the link: one line each, whatever the width of the column.
    expect(await wrapped(page, 'main span.rounded-full')).toEqual([]);
    expect(await wrapped(page, 'main code[title^="http"]')).toEqual([]);

    await row.getByRole('button', { name: /取消自动续费/ }).click();
    const dialog = page.getByRole('dialog', { name: '取消自动续费？' });
    await expect(dialog).toContainText(`家庭版月付 ${tag}`);
    await expect(dialog).not.toContainText(planName);
    await dialog.getByRole('button', { name: '取消自动续费', exact: true }).click();
    await expect(dialog).toBeHidden();

    await page.goto('/fa/dashboard');
    const persianRow = page.getByRole('row').filter({ hasText: username });
    await expect(persianRow).toContainText('۲۰ گیگابایت');
    await expect(persianRow).not.toContainText('GB');
    await expect(persianRow).not.toContainText('·');
  } finally {
    await panel.close();
  }
});

test('the Persian referral page: Persian digits in its terms, and a back arrow pointing right', async ({ browser, page, site }) => {
  const adminPage = await (await browser.newContext({ baseURL: site.baseURL })).newPage();
  await signInAsNewAdmin(adminPage, site, 'admin-reader-referrals');
  const before = (await (await adminPage.request.get('/api/admin/referrals/settings')).json()) as Record<string, unknown>;
  const saved = await send(site, adminPage.request, 'put', '/api/admin/referrals/settings', {
    enabled: true,
    reward: { kind: 'percent', percent: 10, months: 3 },
    referredBenefit: { kind: 'days', days: 7 },
    refundWindowDays: 14,
  });
  try {
    expect(saved.status(), await saved.text()).toBe(200);
    await signIn(page, site, uniqueEmail('persian-referrer'));
    await page.goto('/fa/referrals');
    const terms = page.locator('main ul.list-disc');
    await expect(terms).toContainText('۱۰٪');
    await expect(terms).toContainText('۷ روز');
    expect(await terms.innerText()).not.toMatch(/[0-9]/);
    const back = page.getByRole('link', { name: /بازگشت به داشبورد/ });
    await expect(back).toHaveText('→ بازگشت به داشبورد');

    await page.goto('/referrals');
    await expect(page.getByRole('link', { name: /Back to the dashboard/ })).toHaveText('← Back to the dashboard');
  } finally {
    // The other tests of this worker share the site: put the settings back.
    const { enabled, reward, referredBenefit, refundWindowDays } = before;
    await send(site, adminPage.request, 'put', '/api/admin/referrals/settings', { enabled, reward, referredBenefit, refundWindowDays });
    await adminPage.context().close();
  }
});
