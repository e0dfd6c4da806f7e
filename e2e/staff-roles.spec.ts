import { expect, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('the owner gives someone the support role in Staff; they see only the tabs support may open', async ({ page, site, browser }) => {
  await signInAsNewAdmin(page, site, 'staff-owner');
  await page.goto('/admin/staff');
  await expect(page.getByRole('tab', { name: 'Staff', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Everything but staff roles and payment keys.')).toBeVisible();

  const helper = uniqueEmail('staff-support');
  await page.getByLabel('Their e-mail').fill(helper);
  await page.getByLabel('Role', { exact: true }).selectOption('support');
  await page.getByRole('button', { name: 'Give role' }).click();
  await expect(page.getByText('Role saved.')).toBeVisible();
  await expect(page.getByLabel(`Role of ${helper}`)).toHaveValue('support');

  // The support member signs in elsewhere: the admin opens on Users, and Settings, Staff and the overview are not theirs.
  const context = await browser.newContext({ baseURL: site.baseURL });
  const support = await context.newPage();
  await signIn(support, site, helper);
  await support.goto('/admin');
  await expect(support).toHaveURL(/\/admin\/users$/);
  const tabs = support.getByRole('tablist');
  await expect(tabs.getByRole('tab')).toHaveText(['Users', 'Master Servers', 'Plans', 'Promotions', 'Payments']);
  await support.goto('/admin/settings');
  await expect(support).toHaveURL(/\/admin\/users$/);
  await context.close();

  // Taken away again: a customer once more.
  await page.getByLabel(`Role of ${helper}`).selectOption('user');
  await expect(page.getByLabel(`Role of ${helper}`)).toHaveCount(0);
});
