import { expect, signInAsNewAdmin, test } from './site.js';

/**
 * Issue 57: the sign-in code limits are the admin's settings (Settings → Sign-in limits): the defaults shown, a
 * number out of range refused in the form, a saved change kept. Put back to the defaults after (null), as the
 * other tests sign in from one address.
 */
test('the admin sets the sign-in code limits per e-mail address and per network in Settings', async ({ page, site }) => {
  await signInAsNewAdmin(page, site, 'sign-in-limits-admin');
  try {
    // Settings → 'Sign-in and data'.
    await page.goto('/admin/settings/security');
    const section = page.getByRole('region', { name: 'Sign-in limits' });
    const perEmail = section.getByLabel('Codes per e-mail address per hour');
    const perNetwork = section.getByLabel('Codes per network per 15 minutes');
    await expect(perEmail).toHaveValue('6');
    await expect(perNetwork).toHaveValue('300');
    await expect(section.getByText(/shared address/)).toBeVisible();

    await perNetwork.fill('5');
    // Below the least: the browser refuses the field (min 10) and nothing is sent.
    await section.getByRole('button', { name: 'Save sign-in limits' }).click();
    expect(await perNetwork.evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow)).toBe(true);
    await expect(page.getByText('Sign-in limits saved')).toHaveCount(0);

    await perEmail.fill('4');
    await perNetwork.fill('5000');
    await section.getByRole('button', { name: 'Save sign-in limits' }).click();
    await expect(page.getByText('Sign-in limits saved')).toBeVisible();
    const saved = (await (await page.request.get('/api/admin/settings')).json()) as { signInLimits: unknown };
    expect(saved.signInLimits).toEqual({ codesPerEmail: 4, codesPerNetwork: 5000 });

    await page.reload();
    await expect(page.getByRole('region', { name: 'Sign-in limits' }).getByLabel('Codes per e-mail address per hour')).toHaveValue('4');
  } finally {
    await page.request.put('/api/admin/settings', { headers: { origin: site.baseURL }, data: { signInLimits: null } });
  }
});

test("the plan form says a card subscription's Stripe pages and receipts name the plan in English", async ({ page, site }) => {
  await signInAsNewAdmin(page, site, 'stripe-note-admin');
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Plans' }).click();
  await page.getByRole('button', { name: 'Create plan' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Billing').selectOption({ label: 'Renews automatically' });
  await expect(form.getByText(/Stripe shows the plan’s English name on its payment page, invoices and receipts/)).toBeVisible();
});
