import { startFakeBtcpay } from '../server/test/fake-btcpay/index.js';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, test, uniqueEmail } from './site.js';

const STORE = { apiKey: 'e2e_btcpay_api_key_0000', storeId: 'E2eStore1', webhookSecret: 'e2e_btcpay_webhook_secret_0000' };

test('the admin sets up BTCPay; a customer pays a plan in crypto and gets a working account, shown as crypto in the history', async ({
  page,
  site,
  context,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const btcpay = await startFakeBtcpay({ ...STORE, webhookUrl: `${site.baseURL}/api/webhooks/btcpay` });
  const planName = `Crypto ${Date.now()}`;
  try {
    await signIn(page, site, 'admin-crypto@example.com');
    const post = (url: string, data: object) => page.request.post(url, { data, headers: { origin: site.baseURL } });
    expect(
      (
        await post('/api/admin/servers', {
          kind: 'marzneshin',
          name: `Panel ${planName}`,
          url: panel.url,
          username: panel.admin.username,
          password: panel.admin.password,
          serviceId: '1',
          locations: 'all',
        })
      ).status(),
    ).toBe(201);
    expect((await post('/api/admin/plans', { name: planName, days: 30, dataLimitBytes: 20 * 1024 ** 3, price: 499 })).status()).toBe(201);

    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payment providers' }).click();
    const crypto = page.getByRole('region', { name: 'Crypto payments (BTCPay Server)' });
    await crypto.getByLabel('BTCPay Server URL').fill(btcpay.url);
    await crypto.getByLabel('Store ID').fill(STORE.storeId);
    await crypto.getByLabel('API key', { exact: true }).fill('a-wrong-key');
    await crypto.getByLabel('Webhook secret', { exact: true }).fill(STORE.webhookSecret);
    await crypto.getByLabel('Accept crypto payments').check();
    await crypto.getByRole('button', { name: 'Save crypto settings' }).click();
    await expect(crypto.getByRole('alert')).toContainText('Could not read the store');
    await crypto.getByLabel('API key', { exact: true }).fill(STORE.apiKey);
    await crypto.getByRole('button', { name: 'Save crypto settings' }).click();
    await expect(page.getByText('Crypto payment settings updated')).toBeVisible();
    await expect(crypto.getByLabel('API key', { exact: true })).toHaveValue('');
    await page.context().clearCookies();

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, site, uniqueEmail('crypto-buyer'));
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
    await card.getByRole('button', { name: 'Buy' }).click();
    const buy = page.getByRole('dialog', { name: `Buy ${planName}` });
    await buy.getByRole('button', { name: 'Pay $4.99 with crypto' }).click();

    await expect(page).toHaveURL(new RegExp(`^${btcpay.url}/i/`));
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await expect(page).toHaveURL(/\/thank-you\?session_id=/);
    const setup = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
    await expect(setup).toBeVisible({ timeout: 15_000 });
    await setup.getByRole('button', { name: /copy/i }).first().click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const config = await page.request.get(link, { headers: { 'user-agent': 'v2rayNG/1.8.5' } });
    expect(config.status()).toBe(200);
    expect(Buffer.from(await config.text(), 'base64').toString()).toMatch(/^vless:\/\//m);

    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Transaction History' }).click();
    const row = page.getByRole('dialog', { name: 'Transaction History' }).getByRole('row').filter({ hasText: planName });
    await expect(row).toContainText('Crypto');
    await expect(row).toContainText(/succeeded/i);
  } finally {
    // The other tests of this worker share the site: crypto off again (the public settings follow within seconds).
    await site.database.db('payment_providers').where({ type: 'crypto' }).update({ enabled: false });
    await btcpay.close();
    await panel.close();
  }
});
