import { randomUUID } from 'node:crypto';
import { expect, signIn, test } from './site';

test('the admin finds users by the start of an address, pages through them, and narrows them by role', async ({ page, site }) => {
  const tag = `zz-list-${Date.now()}`;
  const now = Date.now();
  await site.database.db('user_profiles').insert(
    Array.from({ length: 60 }, (_, i) => ({
      id: randomUUID(), email: `${tag}-${String(i).padStart(2, '0')}@example.com`, role: 'user', trial_used: false,
      created_at: new Date(now - i * 1000), updated_at: new Date(now),
    })),
  );
  await signIn(page, site, 'admin-users@example.com');
  await page.goto('/admin');
  const rows = page.getByRole('table', { name: 'Users' }).locator('tbody tr');

  await page.getByLabel('Search by e-mail').fill(tag);
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(`${tag}-00@example.com`);
  await page.getByRole('button', { name: 'Load more users' }).click();
  await expect(rows).toHaveCount(60);
  await expect(rows.last()).toContainText(`${tag}-59@example.com`);
  await expect(page.getByRole('button', { name: 'Load more users' })).toHaveCount(0);

  await page.getByLabel('Search by e-mail').fill(`${tag}-42@example.com`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${tag}-42@example.com`);

  await page.getByLabel('Search by e-mail').fill('');
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await expect(page.getByRole('cell', { name: 'admin-users@example.com' })).toBeVisible();
  await expect(page.getByRole('cell', { name: `${tag}-00@example.com` })).toHaveCount(0);
});
