import { expect, signIn, test, uniqueEmail } from './site.js';

/** The spec's numbers, written out by hand: per month, billed total, badge. */
const EXPECTED = {
  '2 years': {
    Basic: ['$3.99', '$95.76 billed every 2 years', 'Save 69%'],
    Plus: ['$4.99', '$119.76 billed every 2 years', 'Save 64%'],
    Complete: ['$5.99', '$143.76 billed every 2 years', 'Save 60%'],
  },
  '1 year': {
    Basic: ['$5.99', '$71.88 billed every year', 'Save 54%'],
    Plus: ['$6.99', '$83.88 billed every year', 'Save 50%'],
    Complete: ['$7.99', '$95.88 billed every year', 'Save 47%'],
  },
  '1 month': {
    Basic: ['$12.99', '$12.99 billed every month', null],
    Plus: ['$13.99', '$13.99 billed every month', null],
    Complete: ['$14.99', '$14.99 billed every month', null],
  },
} as const;

test('the pricing toggle shows the spec prices, billed totals and savings for each period', async ({ page, consoleErrors }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('button', { name: '2 years' })).toHaveAttribute('aria-pressed', 'true');
  for (const [period, tiers] of Object.entries(EXPECTED)) {
    await page.getByRole('group', { name: 'Billing period' }).getByRole('button', { name: period }).click();
    await expect(page.getByRole('button', { name: period })).toHaveAttribute('aria-pressed', 'true');
    for (const [tier, [perMonth, billed, badge]] of Object.entries(tiers)) {
      const card = page.getByRole('article', { name: tier });
      await expect(card.getByText(perMonth, { exact: true })).toBeVisible();
      await expect(card.getByText(billed, { exact: true })).toBeVisible();
      if (badge) await expect(card.getByText(badge, { exact: true })).toBeVisible();
      else await expect(card.getByText(/^Save \d+%$/)).toHaveCount(0);
      await expect(card.getByText('Most Popular')).toHaveCount(tier === 'Plus' ? 1 : 0);
    }
  }
  expect(consoleErrors).toEqual([]);
});

test('the Get buttons lead to /login when signed out and to /dashboard when signed in', async ({ page, site }) => {
  await page.goto('/pricing');
  await page.getByRole('link', { name: 'Get Plus' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, site, uniqueEmail('buyer'));
  await page.goto('/pricing');
  await page.getByRole('link', { name: 'Get Complete' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
