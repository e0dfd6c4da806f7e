import { expect, signIn, test, waitForHydration } from './site.js';

test('the admin picks the store currency in Settings: the pricing page and the plan editor follow it', async ({ page, site }) => {
  await signIn(page, site, 'admin-currency@example.com');
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Currency' });
  try {
    await expect(section.getByLabel('Store currency')).toHaveValue('usd');
    await section.getByLabel('Store currency').selectOption('jpy');
    await section.getByRole('button', { name: 'Save currency' }).click();
    await expect(page.getByText('Currency updated')).toBeVisible();

    // Prices are read in yen at once on this page: the plan editor takes whole yen.
    await page.getByRole('tab', { name: 'Plans' }).click();
    await page.getByRole('button', { name: 'Create plan' }).click();
    const price = page.getByRole('dialog').getByLabel('Price (JPY)');
    await expect(price).toHaveAttribute('step', '1');
    await price.fill('1500.5');
    await expect(page.getByRole('dialog').getByText('The price is an amount in JPY with no decimals.')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // The same numbers, in yen: the fresh install's 1299 is ¥1,299.
    await page.goto('/pricing');
    await waitForHydration(page); // the period buttons work once the page has hydrated
    await page.getByRole('group', { name: 'Billing period' }).getByRole('button', { name: '1 month' }).click();
    const basic = page.getByRole('article', { name: 'Basic', exact: true });
    await expect(basic.getByText('¥1,299 billed every month, renews automatically; cancel any time', { exact: true })).toBeVisible();
    await expect(page.getByText(/Prices in JPY\./)).toBeVisible();
    await expect(page.locator('main')).not.toContainText('$');

    // A Chinese reader takes a bare '¥' for yuan: the Chinese page says 'JP¥' (issue 57).
    await page.goto('/zh/pricing');
    await waitForHydration(page);
    await expect(page.locator('main')).toContainText('JP¥1,299');
    expect(await page.locator('main').innerText()).not.toMatch(/(^|[^P])¥/);
  } finally {
    // The other tests of this worker share the site: put the default back.
    const restored = await page.request.put('/api/admin/settings', { data: { currency: 'usd' }, headers: { origin: site.baseURL } });
    expect(restored.status()).toBe(200);
  }
});
