import type { Locator, Page } from '@playwright/test';
import { expect, signInAsNewAdmin, test } from './site.js';

/**
 * Issue 57: the Settings tab was one long column with no way to jump to a part of it. Each section has its
 * own address (`/admin/settings/<section>`) and a nav between them, on a 390 px phone and a 1280 px screen;
 * /admin/settings opens the first section, and so does a section that does not exist.
 */

const SECTIONS: [link: string, path: string, region: string][] = [
  ['General', 'general', 'General'],
  ['Site content', 'site', 'Site content'],
  ['Renewals and balance', 'billing', 'Renewals'],
  ['Devices and links', 'accounts', 'Devices'],
  ['Sign-in and data', 'security', 'Data retention'],
  ['Payment providers', 'payments', 'Card payments (Stripe)'],
];

/** The element lies within the screen's width (nothing to scroll sideways to reach it). */
async function expectOnScreen(page: Page, element: Locator): Promise<void> {
  const box = (await element.boundingBox())!;
  const { width } = page.viewportSize()!;
  const name = (await element.textContent()) ?? '';
  expect(box.x, name).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, name).toBeLessThanOrEqual(width);
}

for (const width of [390, 1280]) {
  test(`the Settings tab's sections each have an address and a nav at ${width} px`, async ({ page, site }) => {
    await page.setViewportSize({ width, height: 844 });
    await signInAsNewAdmin(page, site, `admin-settings-${width}`);
    await page.goto('/admin/settings');
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    await expect(nav).toBeVisible();
    // The first section: its forms only.
    await expect(page.getByRole('region', { name: 'General', exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Card payments (Stripe)' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'General' })).toHaveAttribute('aria-current', 'page');

    for (const [link, path, region] of SECTIONS) {
      const item = nav.getByRole('link', { name: link });
      await expectOnScreen(page, item);
      await item.click();
      await expect(page).toHaveURL(new RegExp(`/admin/settings/${path}$`));
      await expect(item).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('region', { name: region, exact: true })).toBeVisible();
      for (const [, other, otherRegion] of SECTIONS) {
        if (other !== path) await expect(page.getByRole('region', { name: otherRegion, exact: true }), `${otherRegion} in ${path}`).toHaveCount(0);
      }
    }

    // An address opens its section on a reload; one that is no section opens the first.
    await page.goto('/admin/settings/accounts');
    await expect(page.getByRole('region', { name: 'Subscription domains' })).toBeVisible();
    await page.goto('/admin/settings/no-such-section');
    await expect(page.getByRole('region', { name: 'General', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'General' })).toHaveAttribute('aria-current', 'page');
  });
}
