import type { Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, FAKE_STRIPE_KEYS, signIn, signInAsNewAdmin, test, uniqueEmail, type Site } from './site.js';

/**
 * Trials the operator shapes (issue 55): a plan bought within the trial continues the trial's own account (the same
 * link), and a trial with a price is started by paying it.
 */

/** As the admin signed in on `page`: a trial plan (free, or with a price), and card payments on. */
async function addTrialAndCard(page: Page, site: Site, trial: { name: string; price: number }): Promise<string> {
  const created = await page.request.post('/api/admin/plans', {
    data: { name: trial.name, days: 3, dataLimitBytes: 1024 ** 3, price: trial.price, isTrial: true, locations: 'all' },
    headers: { origin: site.baseURL },
  });
  expect(created.status()).toBe(201);
  expect(
    (await page.request.put('/api/admin/payments/card', { data: { enabled: true, ...FAKE_STRIPE_KEYS }, headers: { origin: site.baseURL } })).status(),
  ).toBe(200);
  return ((await created.json()) as { id: string }).id;
}

/** The trial plans made here go off again: the specs after this one find the trial they make themselves. */
async function switchOff(page: Page, site: Site, planId: string): Promise<void> {
  await page.request.patch(`/api/admin/plans/${planId}`, { data: { status: 'disabled' }, headers: { origin: site.baseURL } });
}

test('a customer who buys a plan within the trial keeps the trial’s account and link', async ({ page, site, browser }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const tag = Date.now();
  const trialName = `Trial ${tag}`;
  const planName = `Basic ${tag}`;
  let trialId = '';
  try {
    await signInAsNewAdmin(page, site, 'admin-trial-conversion');
    await addServerAndPlan(page, site, panel, { name: planName, price: 499 });
    trialId = await addTrialAndCard(page, site, { name: trialName, price: 0 });

    const customer = await browser.newPage();
    await signIn(customer, site, uniqueEmail('trial-keeper'));
    const trialCard = customer.getByRole('listitem').filter({ has: customer.getByRole('heading', { name: trialName }) });
    await trialCard.getByRole('button', { name: 'Claim Trial' }).click();
    await expect(customer.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    await customer.keyboard.press('Escape');
    const trialRow = customer.getByRole('row').filter({ hasText: trialName });
    const link = await trialRow.locator('code').getAttribute('title');
    expect(link).toMatch(/\/sub\//);

    const card = customer.getByRole('listitem').filter({ has: customer.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    const dialog = customer.getByRole('dialog', { name: `Buy ${planName}` });
    await expect(dialog.getByTestId('keeps-trial')).toHaveText(`Keep this link: your trial becomes ${planName}. Nothing to set up again.`);
    await dialog.getByRole('button', { name: 'Pay $4.99 with card' }).click();
    await expect(customer).toHaveURL(/\/checkout\/pay\/cs_test_/);
    await customer.getByRole('button', { name: 'Pay $4.99' }).click();
    await expect(customer).toHaveURL(/\/thank-you\?session_id=cs_test_/);
    await expect(customer.getByText(`Your trial is now ${planName}`)).toBeVisible({ timeout: 15_000 });
    await expect(customer.getByText(/keeps its link: nothing to set up again/)).toBeVisible();

    await customer.goto('/dashboard');
    const bought = customer.getByRole('row').filter({ hasText: planName });
    await expect(bought).toContainText('20 GB', { timeout: 15_000 });
    expect(await bought.locator('code').getAttribute('title')).toBe(link);
    await expect(customer.getByRole('row').filter({ hasText: trialName })).toHaveCount(0);
  } finally {
    if (trialId) await switchOff(page, site, trialId);
    await panel.close();
  }
});

test('a trial with a price says so on its button and is started by paying it, once', async ({ page, site, browser }) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const tag = Date.now();
  const trialName = `Paid trial ${tag}`;
  let trialId = '';
  try {
    await signInAsNewAdmin(page, site, 'admin-paid-trial');
    await addServerAndPlan(page, site, panel, { name: `Plan ${tag}`, price: 499 });
    trialId = await addTrialAndCard(page, site, { name: trialName, price: 100 });

    const customer = await browser.newPage();
    await signIn(customer, site, uniqueEmail('paid-trial'));
    const trialCard = customer.getByRole('listitem').filter({ has: customer.getByRole('heading', { name: trialName }) });
    await trialCard.getByRole('button', { name: 'Start the trial for $1.00' }).click();
    await customer
      .getByRole('dialog', { name: `Buy ${trialName}` })
      .getByRole('button', { name: 'Pay $1.00 with card' })
      .click();
    await customer.getByRole('button', { name: 'Pay $1.00' }).click();
    await expect(customer).toHaveURL(/\/thank-you\?session_id=cs_test_/);
    await expect(customer.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    await customer.goto('/dashboard');
    await expect(customer.getByRole('row').filter({ hasText: trialName })).toHaveCount(1);
    await expect(trialCard.getByRole('button', { name: 'Trial Already Used' })).toBeDisabled();
  } finally {
    if (trialId) await switchOff(page, site, trialId);
    await panel.close();
  }
});
