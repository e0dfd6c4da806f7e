import { randomUUID } from 'node:crypto';
import { signMiniAppLaunch, type MiniAppUser } from '../server/test/fake-telegram/init-data.js';
import { expect, FAKE_TELEGRAM_BOT, signInOverApi, signInWithCode, test, uniqueEmail, type Site } from './site.js';

/** Telegram's dark theme, as its apps pass it to a Mini App. */
const DARK_THEME = JSON.stringify({ bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', button_color: '#5288c1' });

/** The address Telegram opens for the bot's menu button: the site, with the launch data it signed in the hash. */
const launchAddress = (site: Site, path: string, user: MiniAppUser) =>
  `${site.baseURL}${path}#tgWebAppData=${encodeURIComponent(signMiniAppLaunch(FAKE_TELEGRAM_BOT.token, user))}` +
  `&tgWebAppVersion=8.0&tgWebAppPlatform=android&tgWebAppThemeParams=${encodeURIComponent(DARK_THEME)}`;

/** Switches the store's bot on or off as an admin does (PUT /api/admin/telegram). */
async function switchBot(site: Site, enabled: boolean): Promise<void> {
  const email = uniqueEmail('admin-mini-app');
  const now = new Date();
  await site.database.db('user_profiles').insert({ id: randomUUID(), email, role: 'owner', trial_used: false, created_at: now, updated_at: now });
  const token = await signInOverApi(site, email);
  const res = await fetch(`${site.baseURL}/api/admin/telegram`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    // Switched off, the token goes too: the other tests' site has no bot at all, as a fresh one.
    body: JSON.stringify(enabled ? { enabled, botToken: FAKE_TELEGRAM_BOT.token } : { enabled, botToken: null }),
  });
  expect(res.status, await res.text()).toBe(200);
}

test('opened from the bot in Telegram, the dashboard signs in a linked customer; one not linked yet signs in by e-mail once, which links them', async ({
  page,
  site,
  browser,
}) => {
  await switchBot(site, true);
  try {
    const ann: MiniAppUser = { id: 880_000_000 + (Date.now() % 1_000_000), first_name: 'Ann', username: 'ann_mini', language_code: 'en' };
    const email = uniqueEmail('mini-app');

    // Linked to no one: the usual sign-in page, and the launch data is no longer in the address.
    const refused = page.waitForResponse((res) => res.url().endsWith('/api/auth/telegram'));
    await page.goto(launchAddress(site, '/', ann));
    expect((await refused).status()).toBe(403);
    await expect(page).toHaveURL(/\/login$/);
    expect(page.url()).not.toContain('tgWebAppData');
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');

    // The e-mail code signs them in, and the same launch data links their Telegram to them.
    const linked = page.waitForResponse((res) => res.url().endsWith('/api/me/telegram') && res.request().method() === 'POST');
    await signInWithCode(page, site, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    expect((await linked).status()).toBe(200);
    const customer = await site.database.db('user_profiles').where({ email }).first();
    expect(await site.database.db('telegram_chats').where({ telegram_id: ann.id }).first()).toMatchObject({ user_id: customer.id, username: 'ann_mini' });

    // The next time Telegram opens the Mini App (a web view with no cookie yet), it signs in directly.
    const context = await browser.newContext();
    try {
      const miniApp = await context.newPage();
      await miniApp.goto(launchAddress(site, '/dashboard', ann));
      await expect(miniApp.getByText(`Welcome back, ${email}`)).toBeVisible();
      await expect(miniApp).toHaveURL(/\/dashboard$/);
      expect(await miniApp.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
      const cookies = await context.cookies();
      expect(cookies.find((cookie) => cookie.name === 'vpn_access')).toMatchObject({ httpOnly: true });
      // A reload in the Mini App keeps the session (the launch data has done its work).
      await miniApp.reload();
      await expect(miniApp.getByText(`Welcome back, ${email}`)).toBeVisible();
      // Their Telegram app in Russian, and no language chosen on the site: the dashboard in Russian.
      await miniApp.goto(launchAddress(site, '/', { ...ann, language_code: 'ru' }));
      await expect(miniApp).toHaveURL(/\/ru\/dashboard$/);
      await expect(miniApp.getByText(`С возвращением, ${email}`)).toBeVisible();
    } finally {
      await context.close();
    }
  } finally {
    // Off again and the token removed, so the other tests' site has no bot.
    await switchBot(site, false);
  }
});

test('in the Mini App, a Telegram user goes on without an e-mail, then adds one on the dashboard with a code', async ({ page, site }) => {
  await switchBot(site, true);
  try {
    const bo: MiniAppUser = { id: 881_000_000 + (Date.now() % 1_000_000), first_name: 'Bo', language_code: 'en' };
    await page.goto(launchAddress(site, '/', bo));
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('button', { name: 'Continue with Telegram, without e-mail' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Welcome back, Telegram customer')).toBeVisible();
    const chat = await site.database.db('telegram_chats').where({ telegram_id: bo.id }).first();
    expect(await site.database.db('user_profiles').where({ id: chat.user_id }).first()).toMatchObject({ email: null });

    const card = page.getByRole('region', { name: 'Add an e-mail address' });
    const email = uniqueEmail('mini-app-add');
    await card.getByLabel('Email address').fill(email);
    await card.getByRole('button', { name: 'Send a code' }).click();
    await expect(card.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
    await card.getByLabel('Verification code').fill(await site.smtp.latestCode(email));
    await card.getByRole('button', { name: 'Add this address' }).click();
    await expect(page.getByText(`Welcome back, ${email}`)).toBeVisible();
    await expect(card).toBeHidden();
    expect(await site.database.db('user_profiles').where({ id: chat.user_id }).first()).toMatchObject({ email });
  } finally {
    await switchBot(site, false);
  }
});
