import type { Page } from '@playwright/test';
import { expect, FAKE_STRIPE_KEYS, signInAsNewAdmin, test, waitForHydration, type Site } from './site.js';

/**
 * A store promises only what it has: the setup checklist asks for a payment method and for a trial plan (or the
 * trial promise off), and the public pages speak of a free trial only while a trial plan is on sale and promised.
 */
/** The page's text as a person sees it (what the site flags hide is not in it). */
const visibleText = (page: Page) => page.locator('body').innerText();

async function adminPut(page: Page, site: Site, url: string, data: object): Promise<void> {
  const res = await page.request.put(url, { data, headers: { origin: site.baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

test('a fresh store promises no free trial, and its setup checklist asks for a payment method and a trial plan', async ({ page, browser, site }) => {
  test.setTimeout(150_000);
  await signInAsNewAdmin(page, site, 'admin-promises');
  // As a fresh install: no trial plan, the promise on (its default), no payment provider.
  await adminPut(page, site, '/api/admin/settings', { trialPlanId: null, trialPromise: true });
  await adminPut(page, site, '/api/admin/payments/card', { enabled: false });
  // Other specs on this shared site leave trial plans on sale; a fresh store has none, so they are off sale meanwhile.
  const plans = (await (await page.request.get('/api/admin/plans')).json()) as { id: string; isTrial: boolean; status: string }[];
  const othersTrials = plans.filter((plan) => plan.isTrial && plan.status === 'active').map((plan) => plan.id);
  const setStatus = async (id: string, status: 'active' | 'disabled') => {
    const res = await page.request.patch(`/api/admin/plans/${id}`, { data: { status }, headers: { origin: site.baseURL } });
    expect(res.status(), await res.text()).toBe(200);
  };
  for (const id of othersTrials) await setStatus(id, 'disabled');
  const visitor = await (await browser.newContext({ baseURL: site.baseURL })).newPage();
  let trialPlanId: string | null = null;
  try {
    await page.goto('/admin');
    const checklist = page.getByRole('region', { name: /Finish setting up your site/ });
    const step = (name: string) => checklist.getByRole('listitem').filter({ hasText: name });
    await expect(step('Turn on a payment method (Stripe, BTCPay, YooKassa or Crypto Pay)')).toContainText('(to do)', { timeout: 15_000 });
    await expect(step('Put a trial plan on sale, or switch the free-trial promise off')).toContainText('(to do)');
    await page.screenshot({ path: test.info().outputPath('setup-checklist.png') });
    // Its links open where each is done: the providers' keys are in Settings, not in the Payments list.
    await step('Turn on a payment method')
      .getByRole('link', { name: /^Open Settings \(Payment providers\)/ })
      .click();
    await expect(page).toHaveURL(/\/admin\/settings\/payments$/);
    await expect(page.getByRole('heading', { name: /Stripe/ }).first()).toBeVisible();
    await page.goto('/admin');
    await step('Put a trial plan on sale')
      .getByRole('link', { name: /^Open Settings \(General\)/ })
      .click();
    await expect(page).toHaveURL(/\/admin\/settings\/general$/);
    await expect(page.getByRole('region', { name: 'Free trial on the public pages' })).toBeVisible();
    await page.goto('/admin');

    // The home page and the others say nothing of a free trial.
    await visitor.goto('/');
    await waitForHydration(visitor);
    await expect(visitor.getByRole('heading', { level: 2, name: 'Get started', exact: true })).toBeVisible();
    await expect.poll(() => visibleText(visitor)).not.toMatch(/free trial/i);
    const description = await visitor.locator('meta[name="description"]').getAttribute('content');
    expect(description).not.toMatch(/trial/i);
    await visitor.screenshot({ path: test.info().outputPath('home-without-trial.png') });
    await visitor.goto('/download/linux');
    await expect(visitor.getByRole('button', { name: 'Get Started', exact: true })).toBeVisible();
    await expect.poll(() => visibleText(visitor)).not.toMatch(/free trial/i);
    await visitor.goto('/features/locations');
    // The closing band's button (the header has a Get Started of its own).
    await expect(visitor.locator('a[href*="plan%3Dtrial"]')).toHaveAccessibleName('Get Started');
    await expect.poll(() => visibleText(visitor)).not.toMatch(/free trial/i);
    // The trust, guarantee and help pages too.
    for (const path of ['/why-trust-us/anonymous-accounts', '/why-trust-us/crypto-payment', '/features/money-back-guarantee', '/help']) {
      await visitor.goto(path);
      await expect.poll(() => visibleText(visitor), { message: path }).not.toMatch(/free trial/i);
    }
    await visitor.goto('/pricing');
    await expect(visitor.getByText('Is there a free trial?')).toBeHidden();
    // An answer opened says nothing of a trial either.
    const linkQuestion = visitor.locator('details').filter({ has: visitor.getByText('What is a subscription link?', { exact: true }) });
    await linkQuestion.locator('summary').click();
    await expect(linkQuestion).toContainText('When you buy a plan, your dashboard shows a personal subscription link');
    await expect.poll(() => linkQuestion.innerText()).not.toMatch(/trial/i);
    // No payment provider on: no card checkout promised either.
    await expect(visitor.getByRole('heading', { name: 'Secure card checkout' })).toBeHidden();
    await expect.poll(() => visibleText(visitor)).not.toMatch(/free trial/i);

    // A trial plan on sale: promised, and the step ticked; a payment provider on: that step ticked too.
    const plan = await page.request.post('/api/admin/plans', {
      data: { name: 'Promise trial', days: 3, dataLimitBytes: 1024 ** 3, price: 0, locations: 'all', public: false },
      headers: { origin: site.baseURL },
    });
    expect(plan.status(), await plan.text()).toBe(201);
    trialPlanId = ((await plan.json()) as { id: string }).id;
    await adminPut(page, site, '/api/admin/settings', { trialPlanId });
    await adminPut(page, site, '/api/admin/payments/card', { enabled: true, ...FAKE_STRIPE_KEYS });
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { level: 2, name: 'Start your free trial' })).toBeVisible();
    await expect(visitor.getByText('Free trial, no credit card')).toBeVisible();
    await page.goto('/admin');
    await expect(step('Turn on a payment method (Stripe, BTCPay, YooKassa or Crypto Pay)')).toContainText('(done)');
    await expect(step('Put a trial plan on sale, or switch the free-trial promise off')).toContainText('(done)');

    // The operator switches the promise off (Settings): the trial is on sale but never promised.
    await page.goto('/admin/settings');
    const form = page.getByRole('region', { name: 'Free trial on the public pages' });
    await form.getByLabel('Promise a free trial on the public pages').uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Free-trial setting saved')).toBeVisible();
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { level: 2, name: 'Get started', exact: true })).toBeVisible();
    await expect.poll(() => visibleText(visitor)).not.toMatch(/free trial/i);
  } finally {
    await adminPut(page, site, '/api/admin/settings', { trialPlanId: null, trialPromise: true });
    if (trialPlanId) await setStatus(trialPlanId, 'disabled');
    for (const id of othersTrials) await setStatus(id, 'active');
  }
});
