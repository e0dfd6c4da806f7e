import { test as base, expect, type Page } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { seedDefaultPlans } from '../server/src/modules/plans/plans.seed.js';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../server/test/databases.js';
import { startSmtpCatcher, type SmtpCatcher } from '../server/test/smtp-catcher.js';
import { startFakeStripe, type FakeStripe } from '../server/test/fake-stripe/index.js';
import { startFakeYookassa, type FakeYookassa } from '../server/test/fake-yookassa/index.js';
import { startFakeCryptopay, type FakeCryptopay } from '../server/test/fake-cryptopay/index.js';
import { startFakeTelegram, type FakeTelegram } from '../server/test/fake-telegram/index.js';

/** The keys the fake Stripe accepts; an admin enters them in Settings to turn card payments on. */
export const FAKE_STRIPE_KEYS = {
  publishableKey: 'pk_test_e2ePublishable',
  secretKey: 'sk_test_e2eSecret0123456789',
  webhookSecret: 'whsec_e2eWebhookSecret0123456789',
};

/** The YooKassa shop and the Crypto Pay app the fakes have; an admin enters these in Settings. */
export const FAKE_YOOKASSA = { shopId: '314159', secretKey: 'test_e2eYooKassaSecretKey0123' };
export const FAKE_CRYPTOPAY = { token: '27182:AAe2eCryptoPayToken0123456789abcdef', network: 'testnet' as const };
/** The bot the fake Telegram knows; an admin pastes its token on the Telegram tab. */
export const FAKE_TELEGRAM_BOT = { token: '7100001:AAe2eTelegramBotToken0123456789abcdefg', id: 7100001, username: 'e2e_lumen_bot', first_name: 'Lumen VPN' };

export interface Site {
  baseURL: string;
  smtp: SmtpCatcher;
  database: TestDatabase;
  /** The fake Stripe the server's real Stripe SDK talks to (STRIPE_API_URL); its webhooks reach the site. */
  stripe: FakeStripe;
  /** The fake YooKassa (YOOKASSA_API_URL) and Crypto Pay (CRYPTOPAY_API_URL); their notifications reach the site. */
  yookassa: FakeYookassa;
  cryptopay: FakeCryptopay;
  /** The fake Bot API (TELEGRAM_API_URL): the bot's webhook is this site. */
  telegram: FakeTelegram;
  /** DESKTOP_UPDATES_DIR: where the operator publishes the desktop app (a folder per channel). */
  desktopUpdatesDir: string;
  /** The running app's services, as the admin command line builds them (`runAdminCommand(site.services, …)`). */
  services: FastifyInstance['services'];
}

/**
 * The real server (built web app, the project's database kind, a real SMTP server capturing the
 * codes), started once per worker on a free port of 127.0.0.1, with the plans a fresh install starts with.
 */
/** A port free on 127.0.0.1 right now (so PUBLIC_URL can name it before the app listens). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const test = base.extend<{ consoleErrors: string[] }, { site: Site; databaseKind: TestDatabaseKind }>({
  databaseKind: ['sqlite', { option: true, scope: 'worker' }],
  site: [
    async ({ databaseKind }, use) => {
      const database = await createTestDatabase(databaseKind);
      // As on a fresh install's first start: the default plans (the spec's pricing page).
      await seedDefaultPlans(database.db, new Date());
      const smtp = await startSmtpCatcher();
      const port = await freePort();
      const stripe = await startFakeStripe({ ...FAKE_STRIPE_KEYS, webhookUrl: `http://127.0.0.1:${port}/api/webhooks/stripe` });
      const yookassa = await startFakeYookassa({ ...FAKE_YOOKASSA, webhookUrl: `http://127.0.0.1:${port}/api/webhooks/yookassa` });
      const cryptopay = await startFakeCryptopay({ ...FAKE_CRYPTOPAY, webhookUrl: `http://127.0.0.1:${port}/api/webhooks/cryptopay` });
      const telegram = await startFakeTelegram();
      const { token: botToken, ...bot } = FAKE_TELEGRAM_BOT;
      telegram.addBot(botToken, bot);
      const desktopUpdatesDir = mkdtempSync(join(tmpdir(), 'e2e-desktop-updates-'));
      const config = loadConfig({
        NODE_ENV: 'test',
        DESKTOP_UPDATES_DIR: desktopUpdatesDir,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        APP_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-secret',
        SMTP_URL: smtp.url,
        ADMIN_EMAILS:
          'admin@example.com,admin-marzneshin@example.com,admin-marzban@example.com,admin-payments@example.com,admin-shop@example.com,admin-refunds@example.com,admin-renewals@example.com,admin-dunning@example.com,admin-cancel@example.com,admin-portal@example.com,admin-subscriptions@example.com,admin-settings@example.com,admin-users@example.com,admin-userpage@example.com,admin-return@example.com,admin-checkout-cancel@example.com,admin-create@example.com,admin-overview@example.com,admin-mobile@example.com,admin-setup@example.com,admin-crypto@example.com,admin-languages@example.com,admin-currency@example.com,admin-customer-view@example.com,admin-yookassa@example.com,admin-cryptopay@example.com,admin-telegram@example.com',
        LOG_LEVEL: 'warn',
        STRIPE_API_URL: stripe.url,
        STRIPE_TEST_CLOCKS: 'true',
        YOOKASSA_API_URL: `${yookassa.url}/v3`,
        CRYPTOPAY_API_URL: `${cryptopay.url}/api`,
        TELEGRAM_API_URL: telegram.url,
        // Telegram posts to the site (the fake takes a webhook on 127.0.0.1): no long poll holds the worker.
        TELEGRAM_UPDATES: 'webhook',
        // As behind a reverse proxy on the same machine: a browser that sends X-Forwarded-For is that address
        // (the referral tests' visitors come from addresses of their own); without it, 127.0.0.1 as before.
        TRUST_PROXY: '127.0.0.1',
      });
      // Every browser here signs in from 127.0.0.1: the per-address limits (tested in the server's own suite)
      // would otherwise count the whole run as one visitor.
      const sharedAddress = { max: 1000, windowSeconds: 15 * 60 };
      const app: FastifyInstance = await buildApp({
        config,
        db: database.db,
        logger: false,
        rateLimits: { otpPerIp: sharedAddress, verifyPerIp: sharedAddress },
      });
      await app.listen({ port, host: '127.0.0.1' });
      app.jobWorker.start();
      await use({ baseURL: `http://127.0.0.1:${port}`, smtp, database, stripe, yookassa, cryptopay, telegram, desktopUpdatesDir, services: app.services });
      await app.close();
      rmSync(desktopUpdatesDir, { recursive: true, force: true });
      await stripe.close();
      await yookassa.close();
      await cryptopay.close();
      await telegram.close();
      await smtp.close();
      await database.destroy();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ site }, use) => use(site.baseURL),
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // The browser's "Failed to load resource" does not say which: the path (no host, no query) is added.
      const url = msg.text().startsWith('Failed to load resource') ? msg.location().url : '';
      errors.push(url ? `${msg.text()} at ${new URL(url).pathname}` : msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await use(errors);
  },
});

export { expect };

let counter = 0;
export const uniqueEmail = (prefix = 'e2e') => `${prefix}-${Date.now()}-${(counter += 1)}@example.com`;

/**
 * Waits until React has taken over the prerendered page (its hydration has committed). The page's modules load
 * after it has painted: a click before they have run is the browser's own, as without JavaScript (a form submits
 * as plain HTML and reloads the page, a button does nothing).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    const key = root ? Object.keys(root).find((name) => name.startsWith('__reactContainer$')) : undefined;
    const fiberRoot = key
      ? (root as unknown as Record<string, { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } }>)[key]?.stateNode
      : undefined;
    return fiberRoot?.current?.memoizedState?.isDehydrated === false;
  });
}

/** On the sign-in form already open: asks for a code for `email` and enters the one the e-mail brought (it submits itself). */
export async function signInWithCode(page: Page, site: Site, email: string): Promise<void> {
  await waitForHydration(page);
  await page.getByLabel(/email/i).fill(email);
  const sentBefore = site.smtp.messages.length;
  await page.getByRole('button', { name: 'Instant Access' }).click();
  await site.smtp.waitFor(email, { after: sentBefore });
  await page.getByLabel(/code/i).fill(await site.smtp.latestCode(email));
}

/**
 * Signs the browser in with the code from the captured e-mail, through the API the sign-in form calls (the session
 * cookies land in the page's context, a referral cookie set before goes with them), and opens the dashboard. For
 * tests whose subject comes after the sign-in: the form itself is driven by signInWithCode (login.spec.ts and others).
 */
export async function signIn(page: Page, site: Site, email: string): Promise<void> {
  await signInCookies(page, site, email);
  await openDashboard(page);
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await waitForHydration(page);
}

/** The session cookies of `email` in the page's context, by the code from the captured e-mail; no page opened yet. */
async function signInCookies(page: Page, site: Site, email: string): Promise<void> {
  const headers = { origin: site.baseURL };
  const sentBefore = site.smtp.messages.length;
  const sent = await page.request.post('/api/auth/otp', { data: { email }, headers });
  expect(sent.status(), await sent.text()).toBe(200);
  await site.smtp.waitFor(email, { after: sentBefore });
  const verified = await page.request.post('/api/auth/verify', { data: { email, code: await site.smtp.latestCode(email) }, headers });
  expect(verified.status(), await verified.text()).toBe(200);
}

/** POSTs JSON to the site, as the desktop client or the admin's API calls do (with a bearer token when given). */
export function postJson(site: Site, path: string, body: object, token?: string): Promise<Response> {
  return fetch(site.baseURL + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** Signs in over the API as the desktop client does (the code caught over SMTP), and returns the bearer token. */
export async function signInOverApi(site: Site, email: string): Promise<string> {
  const sentBefore = site.smtp.messages.length;
  expect((await postJson(site, '/api/auth/otp', { email })).status).toBe(200);
  await site.smtp.waitFor(email, { after: sentBefore });
  const verified = await postJson(site, '/api/auth/verify', { email, code: await site.smtp.latestCode(email), client: 'desktop' });
  expect(verified.status).toBe(200);
  return ((await verified.json()) as { accessToken: string }).accessToken;
}

/** A new customer made the owner in the database (each address of ADMIN_EMAILS can sign in only once a minute), signed in on `page`. */
export async function signInAsNewAdmin(page: Page, site: Site, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  // The role is written before the session is first used, so no instance has the customer's role cached for it.
  await signInCookies(page, site, email);
  await site.database.db('user_profiles').where({ email }).update({ role: 'owner' });
  await openDashboard(page);
  return email;
}

/**
 * As the admin signed in on `page`: the fake panel as a server, and a 30-day, 20 GB plan at `price` (minor units), with
 * any other plan fields given (translations, days, public…). Returns the plan's id.
 */
export async function addServerAndPlan(
  page: Page,
  site: Site,
  panel: { url: string; admin: { username: string; password: string } },
  plan: { name: string; price: number; billing?: 'one_off' | 'recurring'; [field: string]: unknown },
): Promise<string> {
  const post = (url: string, data: object) => page.request.post(url, { data, headers: { origin: site.baseURL } });
  const server = await post('/api/admin/servers', {
    kind: 'marzneshin',
    name: `Panel for ${plan.name}`,
    url: panel.url,
    username: panel.admin.username,
    password: panel.admin.password,
    serviceId: '1',
    locations: 'all',
  });
  expect(server.status()).toBe(201);
  const created = await post('/api/admin/plans', { days: 30, dataLimitBytes: 20 * 1024 ** 3, locations: 'all', billing: 'one_off', ...plan });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}
