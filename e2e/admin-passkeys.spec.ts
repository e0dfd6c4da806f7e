import type { FastifyInstance } from 'fastify';
import { createServer, type AddressInfo } from 'node:net';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createTestDatabase, type TestDatabase } from '../server/test/databases.js';
import { startSmtpCatcher, type SmtpCatcher } from '../server/test/smtp-catcher.js';
import { expect, test, uniqueEmail, waitForHydration } from './site.js';

/**
 * A passkey belongs to a domain, and browsers refuse an IP address (the shared site is on 127.0.0.1): this spec runs
 * its own server whose PUBLIC_URL is http://localhost:<port> (a secure context over plain http, as WebAuthn needs).
 * Chromium's virtual authenticator (DevTools' WebAuthn domain) stands in for the device's passkey.
 */
let app: FastifyInstance;
let database: TestDatabase;
let smtp: SmtpCatcher;
let origin: string;

test.beforeAll(async () => {
  database = await createTestDatabase('sqlite');
  smtp = await startSmtpCatcher();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  origin = `http://localhost:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: origin,
    APP_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-passkeys',
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
  });
  app = await buildApp({ config, db: database.db, logger: false });
  await app.listen({ port, host: 'localhost' });
});

test.afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await database?.destroy();
});

async function signInHere(page: import('@playwright/test').Page, email: string) {
  await page.goto(`${origin}/login`);
  await waitForHydration(page);
  await page.getByLabel(/email/i).fill(email);
  const sentBefore = smtp.messages.length;
  await page.getByRole('button', { name: 'Instant Access' }).click();
  await smtp.waitFor(email, { after: sentBefore });
  await page.getByLabel(/code/i).fill(await smtp.latestCode(email));
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('a staff member adds a passkey, signs in again with the code, is asked for the passkey and gets into the admin', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const email = uniqueEmail('passkey-owner');
  await signInHere(page, email);
  await database.db('user_profiles').where({ email }).update({ role: 'owner' });

  // The dashboard's Passkeys section: add one; the recovery codes are shown once.
  const section = page.getByTestId('passkeys');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const codes = page.getByTestId('recovery-codes');
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByRole('listitem')).toHaveCount(1);

  // Signed out, then in again with the e-mailed code alone.
  const out = await page.request.post(`${origin}/api/auth/logout`, { data: {}, headers: { origin } });
  expect(out.status()).toBe(204);
  await page.context().clearCookies();
  // The code's resend cool-down (a minute per address) is not what this spec is about.
  await database.db('otp_codes').delete();
  await signInHere(page, email);

  // The admin asks for the passkey before it opens, then shows itself.
  await page.goto(`${origin}/admin/settings/security`);
  const dialog = page.getByRole('dialog', { name: "Confirm it's you with your passkey" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Use a recovery code' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Use my passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
  expect(await database.db('session_passkeys').whereNotNull('verified_at')).toHaveLength(2);
});
