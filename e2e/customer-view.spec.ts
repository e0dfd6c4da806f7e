import type { APIRequestContext, Page } from '@playwright/test';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, FAKE_STRIPE_KEYS, signIn, test, uniqueEmail, type Site } from './site.js';

/**
 * What a new customer sees of an auto-renewing account (issue 26): the server's public region name (never
 * its internal admin name), one date for when the paid period ends on every screen, and a /sub page that
 * loads without a missing asset.
 */
const INTERNAL_NAME = 'Hetzner box 7 (internal)';
const PUBLIC_NAME = 'Frankfurt';

async function setUpShop(page: Page, site: Site, panel: FakeMarzneshin): Promise<string> {
  await signIn(page, site, 'admin-customer-view@example.com');
  const send = (request: APIRequestContext, method: 'post' | 'put', url: string, data: object) =>
    request[method](url, { data, headers: { origin: site.baseURL } });
  const server = await send(page.request, 'post', '/api/admin/servers', {
    kind: 'marzneshin',
    name: INTERNAL_NAME,
    publicName: PUBLIC_NAME,
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
  });
  expect(server.status()).toBe(201);
  const planName = `View ${Date.now()}`;
  expect(
    (
      await send(page.request, 'post', '/api/admin/plans', { name: planName, days: 30, dataLimitBytes: 20 * 1024 ** 3, price: 499, billing: 'recurring' })
    ).status(),
  ).toBe(201);
  expect((await send(page.request, 'put', '/api/admin/payments/card', { enabled: true, ...FAKE_STRIPE_KEYS })).status()).toBe(200);
  await page.goto('about:blank');
  await page.context().clearCookies();
  return planName;
}

test('a card subscriber sees the public region name, one end date everywhere, and a /sub page with no missing asset', async ({
  page,
  site,
  context,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  try {
    const planName = await setUpShop(page, site, panel);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, site, uniqueEmail('viewer'));
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    await page
      .getByRole('dialog', { name: `Buy ${planName}` })
      .getByRole('button', { name: 'Pay $4.99 with card' })
      .click();
    await expect(page).toHaveURL(/\/checkout\/pay\/cs_test_/);
    await page.getByRole('button', { name: 'Pay $4.99' }).click();
    const setup = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
    await expect(setup).toBeVisible({ timeout: 15_000 });

    // The setup dialog: the public name, and the day the paid period ends (not the panel's, which has the grace days on top).
    await expect(setup).toContainText(PUBLIC_NAME);
    await expect(setup).not.toContainText(INTERNAL_NAME);
    const expires = (await setup.getByText('Expires', { exact: true }).locator('xpath=following-sibling::dd').innerText()).trim();
    await setup.getByRole('button', { name: /copy/i }).first().click();
    const subUrl = await page.evaluate(() => navigator.clipboard.readText());
    await page.keyboard.press('Escape');

    const username = [...panel.users.values()].map(asMarzneshinUser)[0]!.username;
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${username}`) }) });
    await expect(row).toContainText(PUBLIC_NAME);
    await expect(row).not.toContainText(INTERNAL_NAME);
    await expect(row.getByText(/^Renews on .+ · \$4\.99$/)).toHaveText(`Renews on ${expires} · $4.99`);

    // Auto-renew off: the cell says one date, the same one.
    await page.getByRole('button', { name: `Cancel auto-renew ${username}` }).click();
    await page.getByRole('dialog', { name: 'Cancel auto-renew?' }).getByRole('button', { name: 'Cancel auto-renew' }).click();
    await expect(row.getByText(/^Auto-renew off — ends on /)).toHaveText(`Auto-renew off — ends on ${expires}`);
    await expect(row.getByRole('cell').filter({ hasText: 'Auto-renew off' })).toHaveText(
      new RegExp(`^(Expires)?${expires}Auto-renew off — ends on ${expires}$`),
    );
    await page.reload();
    await expect(row.getByRole('cell').filter({ hasText: 'Auto-renew off' })).toHaveText(
      new RegExp(`^(Expires)?${expires}Auto-renew off — ends on ${expires}$`),
    );
    await row.getByRole('button', { name: `Setup ${username}` }).click();
    await expect(page.getByRole('dialog').getByText('Expires', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText(expires);
    await page.keyboard.press('Escape');
    expect(consoleErrors).toEqual([]);

    // The subscription link in a browser: its page and everything it references load, the icon included.
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(subUrl);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBeTruthy();
    const referenced = await page.evaluate(() =>
      [...document.querySelectorAll('link[href], script[src], img[src]')].map((el) => (el as HTMLLinkElement).href || (el as HTMLImageElement).src),
    );
    for (const url of referenced.filter((href) => !href.startsWith('data:'))) expect((await page.request.get(url)).status(), url).toBe(200);
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});
