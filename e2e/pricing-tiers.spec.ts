import { expect, signInAsNewAdmin, test, waitForHydration } from './site.js';

/** A tier the operator sells monthly only is on the pricing page in every period's view, never hidden. */
test('a new tier with only a monthly plan shows in every period of the pricing page, as its monthly plan', async ({ page, site }) => {
  test.setTimeout(60_000);
  await signInAsNewAdmin(page, site, 'tier-admin');
  const created = await page.request.post('/api/admin/plans', {
    data: {
      name: 'Ultra monthly',
      tier: 'Ultra',
      days: 30,
      dataLimitBytes: 50 * 1024 ** 3,
      price: 2999,
      locations: 'all',
      billing: 'recurring',
      sortOrder: 9000,
    },
    headers: { origin: site.baseURL },
  });
  expect(created.status(), await created.text()).toBe(201);
  const planId = ((await created.json()) as { id: string }).id;
  try {
    await page.goto('/pricing');
    await waitForHydration(page);
    const toggle = page.getByRole('group', { name: 'Billing period' });
    await expect(toggle.getByRole('button', { name: '2 years' })).toHaveAttribute('aria-pressed', 'true');
    for (const period of ['2 years', '1 year', '1 month']) {
      await toggle.getByRole('button', { name: period }).click();
      const card = page.getByRole('article', { name: 'Ultra', exact: true });
      await expect(card).toBeVisible();
      await expect(card.getByText('$29.99', { exact: true })).toBeVisible();
      await expect(card.getByText('$29.99 billed every month, renews automatically; cancel any time', { exact: true })).toBeVisible();
      await expect(card.getByRole('link', { name: 'Get Ultra' })).toHaveAttribute('href', new RegExp(planId));
    }
  } finally {
    // Off sale again: the other tests of this worker see the fresh install's plans.
    await page.request.patch(`/api/admin/plans/${planId}`, { data: { status: 'disabled' }, headers: { origin: site.baseURL } });
  }
});
