import { randomUUID } from 'node:crypto';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, test } from './site.js';

test('the admin finds users by the start of an address, pages through them, and narrows them by role', async ({ page, site }) => {
  const tag = `zz-list-${Date.now()}`;
  const now = Date.now();
  await site.database.db('user_profiles').insert(
    Array.from({ length: 60 }, (_, i) => ({
      id: randomUUID(),
      email: `${tag}-${String(i).padStart(2, '0')}@example.com`,
      role: 'user',
      trial_used: false,
      created_at: new Date(now - i * 1000),
      updated_at: new Date(now),
    })),
  );
  await signIn(page, site, 'admin-users@example.com');
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Users' }).click();
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
  await page.getByLabel('Role', { exact: true }).selectOption('owner');
  await expect(page.getByRole('cell', { name: 'admin-users@example.com' })).toBeVisible();
  await expect(page.getByRole('cell', { name: `${tag}-00@example.com` })).toHaveCount(0);
});

test("the owner opens a customer's page from the list, gives them a staff role and signs them out everywhere", async ({ page, site }) => {
  const email = `zz-page-${Date.now()}@example.com`;
  const now = new Date();
  await site.database.db('user_profiles').insert({ id: randomUUID(), email, role: 'user', trial_used: false, created_at: now, updated_at: now });
  await signIn(page, site, 'admin-userpage@example.com'); // another admin: one address signs in once a minute
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByLabel('Search by e-mail').fill(email);
  await page.getByRole('link', { name: email }).click();

  await expect(page).toHaveURL(/\/admin\/users\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: email })).toBeVisible();
  await expect(page.getByText('No VPN accounts.')).toBeVisible();
  await expect(page.getByText('Not signed in anywhere.')).toBeVisible();

  await page.getByLabel(`Role of ${email}`).selectOption('support');
  await expect(page.getByText('Role saved.')).toBeVisible();
  await expect(page.getByText(/^support · joined/)).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Role changed', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByText('Success: Signed out everywhere')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Signed out everywhere by staff', exact: true })).toBeVisible();

  // A reload keeps the page (the server serves the app at this address).
  await page.reload();
  await expect(page.getByRole('heading', { name: email })).toBeVisible();
});

test('Create Account picks the customer by e-mail; the account shows on their page', async ({ page, site }) => {
  const panel = await startFakeMarzneshin();
  try {
    const email = `zz-create-${Date.now()}@example.com`;
    const now = new Date();
    await site.database.db('user_profiles').insert({ id: randomUUID(), email, role: 'user', trial_used: false, created_at: now, updated_at: now });
    await signIn(page, site, 'admin-create@example.com');
    const server = await page.request.post('/api/admin/servers', {
      data: {
        kind: 'marzneshin',
        name: `Create ${Date.now()}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      headers: { origin: site.baseURL },
    });
    expect(server.status()).toBe(201);
    const serverName = (await server.json()).name as string;

    await page.goto('/create');
    await page.getByLabel('Customer e-mail').fill('nobody-here@example.com');
    await page.getByLabel('Master server').selectOption({ label: `${serverName} (All locations)` });
    await page.getByRole('button', { name: 'Create VPN Account' }).click();
    await expect(page.getByRole('alert')).toContainText('There is no customer with the e-mail nobody-here@example.com');
    expect(panel.users.size).toBe(0);

    await page.getByLabel('Customer e-mail').fill(email);
    await page.getByRole('button', { name: 'Create VPN Account' }).click();
    await expect(page).toHaveURL(/\/admin\/users\/[\w-]+$/);
    await expect(page.getByRole('heading', { name: email })).toBeVisible();
    const [username] = [...panel.users.keys()];
    await expect(page.getByRole('table', { name: 'VPN accounts' })).toContainText(username!);
  } finally {
    await panel.close();
  }
});
