import { runAdminCommand } from '../server/src/cli/admin.js';
import { createRemnawaveDriver } from '../server/src/panels/remnawave.js';
import { startFakeRemnawave } from '../server/test/fake-panels/remnawave.js';
import { expect, signIn, test, uniqueEmail } from './site.js';

/**
 * Issue 24: an operator moving from a Remnawave panel adds it with its API token (the form shows the
 * token field for this kind, and the squads by name), imports the panel's users by e-mail, and the
 * customer signs in by code to find their account with the panel's expiry.
 */

const GB = 1024 ** 3;

test('an operator adds a Remnawave panel by its API token, imports its users, and the customer finds theirs', async ({ page, site, browser }) => {
  const panel = await startFakeRemnawave();
  const squad = panel.squads[0]!;
  // Users the operator's old shop made on the panel.
  const oldShop = createRemnawaveDriver({ url: panel.url, username: '', password: '', apiToken: panel.apiToken, serviceId: squad.uuid });
  const tag = Date.now().toString(36);
  const expiresAt = new Date(Date.now() + 17 * 24 * 3600_000);
  const movers = [`mover_${tag}_a`, `mover_${tag}_b`];
  for (const username of movers) await oldShop.createAccount({ username, dataLimitBytes: 100 * GB, expiresAt, note: 'old shop' });

  try {
    const admin = uniqueEmail('admin-import');
    await runAdminCommand(site.services, ['grant', admin]);
    await signIn(page, site, admin);
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Master Servers' }).click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Panel type').selectOption('remnawave');
    // A token panel: no username or password, an API token instead.
    await expect(dialog.getByLabel('Username')).toHaveCount(0);
    await expect(dialog.getByLabel('Password')).toHaveCount(0);
    await dialog.getByLabel('Name', { exact: true }).fill(`Remnawave ${tag}`);
    await dialog.getByLabel('URL').fill(panel.url);
    await dialog.getByLabel('API token').fill('eyJhbGciOiJIUzI1NiJ9.eyJ1dWlkIjoieCJ9.wrong');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(dialog.getByText('Connection test failed. Please check the credentials.')).toBeVisible();
    await dialog.getByLabel('API token').fill(panel.apiToken);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    // Squads are listed by name, to tick one or more.
    await dialog.getByRole('checkbox', { name: `${squad.name} (${squad.uuid})` }).check();
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect(page.getByText('Server added successfully')).toBeVisible();

    await page.getByRole('button', { name: `Import users Remnawave ${tag}` }).click();
    const importer = page.getByRole('dialog', { name: `Import users from Remnawave ${tag}` });
    const row = (username: string) => importer.getByRole('listitem').filter({ hasText: username });
    await expect(row(movers[0]!)).toBeVisible();
    const customer = uniqueEmail('mover');
    await importer.getByLabel(`Customer e-mail for ${movers[0]}`).fill(customer);
    await importer.getByRole('button', { name: `Import ${movers[0]}` }).click();
    await expect(page.getByText('1 user imported')).toBeVisible();
    await expect(row(movers[0]!)).toHaveCount(0);

    // A CSV row with a problem refuses the whole file and says which row.
    await importer.getByLabel('CSV rows').fill(`username,email\n${movers[1]},second@example.com\nnobody_${tag},third@example.com`);
    await importer.getByRole('button', { name: 'Import all rows' }).click();
    await expect(importer.getByText(`Row 2 (nobody_${tag}, third@example.com): The panel has no user with this name.`)).toBeVisible();
    await expect(row(movers[1]!)).toBeVisible();

    // With no CSV, the e-mails typed in the list are what "Import all rows" imports (issue 57).
    await importer.getByLabel('CSV rows').fill('');
    const importAll = importer.getByRole('button', { name: 'Import all rows' });
    await expect(importAll).toBeDisabled();
    await importer.getByLabel(`Customer e-mail for ${movers[1]}`).fill(uniqueEmail('mover-two'));
    await expect(importAll).toBeEnabled();
    await importAll.click();
    await expect(row(movers[1]!)).toHaveCount(0);

    const context = await browser.newContext({ baseURL: site.baseURL });
    const customerPage = await context.newPage();
    await signIn(customerPage, site, customer);
    await expect(customerPage.getByRole('rowheader').getByText(movers[0]!, { exact: true })).toBeVisible();
    const expiry = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(expiresAt);
    await expect(customerPage.getByText(expiry).first()).toBeVisible();
    await context.close();
  } finally {
    await panel.close();
  }
});
