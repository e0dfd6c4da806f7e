import { expect, signIn, test } from './site.js';

test('a fresh site shows no made-up address: support@ its own host until the operator sets one', async ({ page, site }) => {
  const host = new URL(site.baseURL).hostname;
  for (const path of ['/', '/contact', '/pricing', '/help', '/download/windows']) {
    const response = await page.goto(path);
    expect(await response!.text(), path).not.toContain('example.com');
  }
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: `support@${host}` }).first()).toBeVisible();
});

test('the admin sees what is left to set up, and the site content follows Settings → Site content', async ({ page, site }) => {
  await signIn(page, site, 'admin-setup@example.com');
  await page.goto('/admin');
  const checklist = page.getByRole('region', { name: /Finish setting up your site/ });
  await expect(checklist).toContainText('Set the support e-mail address customers write to (to do)');
  await checklist.getByRole('link', { name: 'Open Settings (General) to set the support e-mail address customers write to' }).click();
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Site content' }).click();

  const content = page.getByRole('region', { name: 'Site content' });
  try {
    await content.getByLabel('Number of locations').fill('lots');
    await content.getByRole('button', { name: 'Save site content' }).click();
    await expect(content.getByText(/A number, optionally followed by \+/)).toBeVisible();

    await content.getByLabel('Number of locations').fill('12');
    await content.getByLabel('Offer threat protection and ad blocking').uncheck();
    await content.getByRole('button', { name: 'Save site content' }).click();
    await expect(page.getByText('Site content updated')).toBeVisible();

    await page.goto('/features/locations');
    await expect(page.getByRole('heading', { level: 1, name: '12 Global Locations' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Threat Protection' })).toBeHidden();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'No Tracking' })).toBeVisible();
    expect((await page.goto('/features/threat-protection'))!.status()).toBe(404);
  } finally {
    // The other tests of this worker share the site: put the defaults back.
    const restored = await page.request.put('/api/admin/settings', {
      data: { locationsClaim: '50+', protectionFeatures: true },
      headers: { origin: site.baseURL },
    });
    expect(restored.status()).toBe(200);
  }
  await page.goto('/features/locations');
  await expect(page.getByRole('heading', { level: 1, name: '50+ Global Locations' })).toBeVisible();
});
