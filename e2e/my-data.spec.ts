import { readFileSync } from 'node:fs';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('a customer downloads their data, then deletes their account: the VPN account leaves its panel and an e-mail confirms it', async ({
  page,
  site,
  browser,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  try {
    // The admin gives the customer a VPN account on a panel.
    await signInAsNewAdmin(page, site, 'admin-my-data');
    const post = (url: string, data: object) => page.request.post(url, { data, headers: { origin: site.baseURL } });
    const server = await post('/api/admin/servers', {
      kind: 'marzneshin',
      name: `My data ${Date.now()}`,
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'all',
    });
    expect(server.status()).toBe(201);
    const customer = await browser.newPage();
    const email = uniqueEmail('my-data');
    await signIn(customer, site, email);
    const userId = ((await (await page.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`)).json()) as Array<{ id: string }>)[0]!.id;
    const account = await post('/api/admin/accounts', { serverId: (await server.json()).id, dataLimitGb: 10, expireDays: 30, userId });
    expect(account.status()).toBe(201);
    const accountId = (await account.json()).id as string;
    expect(panel.users.size).toBe(1);

    await customer.reload();
    const section = customer.getByRole('region', { name: 'Your data' });
    await section.scrollIntoViewIfNeeded();
    const downloading = customer.waitForEvent('download');
    await section.getByRole('button', { name: 'Download my data' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync(await file.path(), 'utf8'));
    expect(data.profile.email).toBe(email);
    expect(data.accounts.map((a: { id: string }) => a.id)).toEqual([accountId]);

    await section.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = customer.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toContainText('time already paid for');
    await expect(dialog).toContainText('payment records are kept without your name');
    const mailsBefore = site.smtp.messages.length;
    await dialog.getByRole('button', { name: 'Delete my account' }).click();

    await expect(customer.getByText('Your account has been deleted.')).toBeVisible();
    await expect(customer).toHaveURL(/\/login$/);
    expect(panel.users.size).toBe(0);
    const mail = await site.smtp.waitFor(email, { after: mailsBefore });
    expect(mail.subject).toContain('your account has been deleted');
    // Signed out: the dashboard asks for a sign-in again.
    await customer.goto('/dashboard');
    await expect(customer).toHaveURL(/\/login/);
    await expect(customer.getByLabel(/e-?mail/i).first()).toBeVisible();
  } finally {
    await panel.close();
  }
});
