import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, postJson, signIn, signInAsNewAdmin, signInOverApi, test, uniqueEmail } from './site.js';

/**
 * Spare subscription domains (issue 52): the admin lists one in Settings; the whole site works on it (sign-in,
 * dashboard, canonical links to the main address) and links are issued there; marking it blocked moves links
 * back, Happ on the old domain is told the new one, and the old link still answers. `localhost` stands in for
 * the spare domain of this 127.0.0.1 site.
 */
test('the admin adds a spare subscription domain, a customer uses the site on it, and blocking it moves the links', async ({ page, site, browser }) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  const spareHost = `localhost:${new URL(site.baseURL).port}`;
  const mainHost = new URL(site.baseURL).host;
  try {
    await signInAsNewAdmin(page, site, 'admin-domains');
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    const section = page.getByRole('region', { name: 'Subscription domains' });
    await expect(section.getByText(`None yet: links are issued on ${mainHost}.`)).toBeVisible();
    await section.getByRole('button', { name: 'Add a domain' }).click();
    await section.getByLabel('Domain 1').fill('https://bad.example.com');
    await section.getByRole('button', { name: 'Save domains' }).click();
    await expect(section.getByText('Just the domain, without https:// or a path, e.g. sub1.example.com')).toBeVisible();
    await section.getByLabel('Domain 1').fill(spareHost);
    await expect(section.getByText(`Links are issued on ${spareHost}.`)).toBeVisible();
    await section.getByRole('button', { name: 'Save domains' }).click();
    await expect(page.getByText('Subscription domains updated')).toBeVisible();

    // A free plan to claim.
    const adminEmail = uniqueEmail('admin-domains-api');
    const admin = await signInOverApi(site, adminEmail);
    await site.database.db('user_profiles').where({ email: adminEmail }).update({ role: 'owner' });
    expect(
      (
        await postJson(
          site,
          '/api/admin/servers',
          {
            kind: 'marzneshin',
            name: `Domains ${Date.now()}`,
            url: panel.url,
            username: panel.admin.username,
            password: panel.admin.password,
            serviceId: '1',
            locations: 'all',
          },
          admin,
        )
      ).status,
    ).toBe(201);
    const planName = `Spare ${Date.now()}`;
    expect((await postJson(site, '/api/admin/plans', { name: planName, days: 30, dataLimitBytes: 1024 ** 3, price: 0, public: false }, admin)).status).toBe(
      201,
    );

    // The customer on the spare domain: the site works there, and canonical links name the main address.
    const context = await browser.newContext({ baseURL: `http://${spareHost}` });
    const customer = await context.newPage();
    await customer.goto('/pricing');
    await expect(customer.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`^${site.baseURL}/`));
    await signIn(customer, site, uniqueEmail('domains-customer'));
    await customer
      .getByRole('listitem')
      .filter({ has: customer.getByRole('heading', { name: planName, exact: true }) })
      .getByRole('button', { name: 'Get Free' })
      .click();
    const dialog = customer.getByRole('dialog', { name: /Your VPN Account is Ready/ });
    await expect(dialog).toBeVisible();
    const [account] = (await (await customer.request.get('/api/accounts')).json()) as Array<{ subscriptionUrl: string }>;
    expect(account!.subscriptionUrl).toMatch(new RegExp(`^http://${spareHost}/sub/`));
    await expect(dialog).toContainText(`http://${spareHost}/sub/`);
    await customer.keyboard.press('Escape');

    // The spare domain is blocked: the links move back to the main address.
    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Devices and links' }).click();
    await page.getByRole('region', { name: 'Subscription domains' }).getByLabel('Blocked').check();
    await page.getByRole('region', { name: 'Subscription domains' }).getByRole('button', { name: 'Save domains' }).click();
    await expect(page.getByText('Subscription domains updated')).toBeVisible();
    const path = new URL(account!.subscriptionUrl).pathname;
    await expect
      .poll(async () => ((await (await customer.request.get('/api/accounts')).json()) as Array<{ subscriptionUrl: string }>)[0]!.subscriptionUrl)
      .toBe(`${site.baseURL}${path}`);
    const happ = await fetch(account!.subscriptionUrl, { headers: { 'user-agent': 'Happ/3.2.1', 'x-hwid': 'happ-e2e-domains' } });
    expect(happ.status).toBe(200);
    expect(happ.headers.get('new-domain')).toBe(mainHost);
    expect(happ.headers.get('new-url')).toBe(`${site.baseURL}${path}`);
    await context.close();
  } finally {
    await page.request.put('/api/admin/settings', { data: { subscriptionDomains: [] }, headers: { origin: site.baseURL } });
    await panel.close();
  }
});
