import { expect, signIn, test, uniqueEmail, waitForHydration } from './site.js';

/**
 * The dashboard's plan cards (issue 26): the fresh install's nine plans are three tiers by three
 * periods, and the operator marks the whole Plus tier most popular.
 */

const TIERS = ['Complete', 'Plus', 'Basic'] as const;
const PERIODS = ['1 Month', '1 Year', '2 Years'] as const;

test("'Most Popular' shows once, on the Plus tier's shortest plan, not on each of its periods", async ({ page, site, consoleErrors }) => {
  await signIn(page, site, uniqueEmail('popular'));
  const plus = page.getByRole('list', { name: 'Plus plans', exact: true });
  // The cards (their feature lines are lists of their own).
  const cards = plus.getByRole('listitem').filter({ has: page.getByRole('heading') });
  await expect(cards).toHaveCount(3);
  await expect(plus.getByText('Most Popular', { exact: true })).toHaveCount(1);
  await expect(cards.filter({ hasText: 'Most Popular' }).getByRole('heading')).toHaveText('Plus 1 Month');
  for (const tier of ['Complete', 'Basic']) {
    await expect(page.getByRole('list', { name: `${tier} plans`, exact: true }).getByText('Most Popular')).toHaveCount(0);
  }
  expect(consoleErrors).toEqual([]);
});

test('each Buy is named with its plan for a screen reader, in the page language', async ({ page, site, consoleErrors }) => {
  await signIn(page, site, uniqueEmail('buy-names'));
  for (const tier of TIERS) {
    for (const period of PERIODS) {
      const name = `${tier} ${period}`;
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
      // The visible word stays 'Buy' (the accessible name starts with it, as voice control expects).
      await expect(card.getByRole('button', { name: `Buy ${name}`, exact: true })).toHaveText('Buy');
    }
  }
  await expect(page.getByRole('button', { name: 'Buy', exact: true })).toHaveCount(0);

  // In Persian, with the seeded plan's Persian name.
  await page.goto('/fa/dashboard');
  await waitForHydration(page);
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'پلاس ۱ ساله', exact: true }) });
  const buy = card.getByRole('button', { name: /^خرید\s+\W?پلاس ۱ ساله\W?$/ });
  await expect(buy).toHaveText('خرید');
  expect(consoleErrors).toEqual([]);
});
