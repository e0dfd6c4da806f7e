/**
 * `npm run demo` (builds the web site, then runs this from source with tsx; `npx tsx scripts/demo.ts`
 * reuses an existing dist/): the whole site on a throw-away SQLite database, with a fake Marzneshin panel and a
 * fake Stripe running in the same process, seeded so the full flow can be tried locally: sign in (the
 * code is printed in this log), claim the trial, buy a plan, pay on the fake checkout page, see the
 * setup dialog, and use the admin panel. Nothing is real and nothing is kept: the data folder is a
 * fresh temporary folder, removed on exit (Ctrl+C).
 *
 * Environment: PORT (default 3000; the site is http://localhost:PORT), DEMO_ADMIN_EMAIL (default
 * admin@demo.local), LOG_LEVEL (default info), DEMO_STRIPE_PORT, DEMO_PANEL_PORT, DEMO_BTCPAY_PORT,
 * DEMO_YOOKASSA_PORT and DEMO_CRYPTOPAY_PORT (defaults 12111 to 12115). Everything listens on 127.0.0.1 only. The fake Stripe and the fake panel use their ports
 * when those are free, otherwise free ones.
 * `npm start` never starts these fakes: only this script does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { EmailSchema } from '../shared/auth.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createDb, type Db } from '../server/src/db/knex.js';
import { migrateToLatest } from '../server/src/db/migrate.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { startFakeStripe, type FakeStripe } from '../server/test/fake-stripe/index.js';
import { startFakeBtcpay, type FakeBtcpay } from '../server/test/fake-btcpay/index.js';
import { startFakeYookassa, type FakeYookassa } from '../server/test/fake-yookassa/index.js';
import { startFakeCryptopay, type FakeCryptopay } from '../server/test/fake-cryptopay/index.js';
import { DEMO_BTCPAY, DEMO_CRYPTOPAY, DEMO_STRIPE_KEYS, DEMO_YOOKASSA, seedDemo } from './demo-seed.js';

const HOST = '127.0.0.1';
const DEFAULT_FAKE_STRIPE_PORT = 12111;
const DEFAULT_FAKE_PANEL_PORT = 12112;
const DEFAULT_FAKE_BTCPAY_PORT = 12113;
const DEFAULT_FAKE_YOOKASSA_PORT = 12114;
const DEFAULT_FAKE_CRYPTOPAY_PORT = 12115;
const SHUTDOWN_GRACE_MS = 10_000;
const isAddressInUse = (err: unknown): boolean => (err as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';

/** Starts a fake on its usual port, or on a free one when that port is taken. */
async function onPreferredPort<T>(name: string, port: number, start: (port: number) => Promise<T>): Promise<T> {
  try {
    return await start(port);
  } catch (err) {
    if (!isAddressInUse(err)) throw err;
    process.stdout.write(`[demo] port ${port} is taken; the ${name} uses a free port instead\n`);
    return start(0);
  }
}

function parsePort(raw: string | undefined, name = 'PORT', fallback = 3000): number {
  const port = Number(raw || fallback);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    process.stderr.write(`[demo] ${name} must be a port number from 1 to 65535 (got ${JSON.stringify(raw)})\n`);
    process.exit(1);
  }
  return port;
}

function parseAdminEmail(raw: string | undefined): string {
  const email = EmailSchema.safeParse(raw || 'admin@demo.local');
  if (!email.success) {
    process.stderr.write(`[demo] DEMO_ADMIN_EMAIL is not an e-mail address (got ${JSON.stringify(raw)})\n`);
    process.exit(1);
  }
  return email.data;
}

function banner(lines: {
  site: string;
  adminEmail: string;
  stripe: FakeStripe;
  webhookUrl: string;
  btcpay: FakeBtcpay;
  yookassa: FakeYookassa;
  cryptopay: FakeCryptopay;
  panel: FakeMarzneshin;
  dir: string;
}): string {
  const rule = '#'.repeat(78);
  return [
    '',
    rule,
    '  DEMO RUNNING: nothing here is real, and nothing is kept after Ctrl+C.',
    rule,
    `  Open the site:   ${lines.site}`,
    `  Sign in as ${lines.adminEmail} (admin) or any e-mail;`,
    '    the 6-digit code is printed in this log (no e-mail is sent).',
    '  Claim the 3-hour trial from the dashboard, or pick a plan on /pricing (Basic, Plus, Complete):',
    '    pay with card on a fake Stripe, or with crypto on a fake BTCPay Server or a fake Crypto Pay: click Pay (no card, no coins).',
    '  Your balance: Balance on the dashboard tops up (on any of those) and pays plans.',
    '  YooKassa (roubles, card and SBP) is set up too: it is offered once Admin → Settings → Currency is RUB.',
    `  Admin panel:     ${new URL('/admin', lines.site).href} (as ${lines.adminEmail})`,
    '',
    `  Fake Stripe:     ${lines.stripe.url} (webhooks to ${lines.webhookUrl})`,
    `  Test clocks:     ${lines.stripe.url}/test-clocks (advance a customer's renewal)`,
    `  Fake BTCPay:     ${lines.btcpay.url} (store ${lines.btcpay.storeId}; its checkout page can also pay partially or let the invoice expire)`,
    `  Fake YooKassa:   ${lines.yookassa.url} (shop ${lines.yookassa.shopId}; its payment page can pay by card or SBP, or decline)`,
    `  Fake Crypto Pay: ${lines.cryptopay.url} (testnet app ${lines.cryptopay.appId}; its invoice page pays in each coin)`,
    `  Fake panel:      ${lines.panel.url} (Marzneshin; admin ${lines.panel.admin.username} / ${lines.panel.admin.password})`,
    `  Database:        throw-away SQLite in ${lines.dir} (deleted on exit)`,
    '  Stop with Ctrl+C.',
    rule,
    '',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const port = parsePort(process.env.PORT);
  const stripePort = parsePort(process.env.DEMO_STRIPE_PORT, 'DEMO_STRIPE_PORT', DEFAULT_FAKE_STRIPE_PORT);
  const panelPort = parsePort(process.env.DEMO_PANEL_PORT, 'DEMO_PANEL_PORT', DEFAULT_FAKE_PANEL_PORT);
  const btcpayPort = parsePort(process.env.DEMO_BTCPAY_PORT, 'DEMO_BTCPAY_PORT', DEFAULT_FAKE_BTCPAY_PORT);
  const yookassaPort = parsePort(process.env.DEMO_YOOKASSA_PORT, 'DEMO_YOOKASSA_PORT', DEFAULT_FAKE_YOOKASSA_PORT);
  const cryptopayPort = parsePort(process.env.DEMO_CRYPTOPAY_PORT, 'DEMO_CRYPTOPAY_PORT', DEFAULT_FAKE_CRYPTOPAY_PORT);
  const adminEmail = parseAdminEmail(process.env.DEMO_ADMIN_EMAIL);
  const dir = mkdtempSync(join(tmpdir(), 'vpn-demo-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  // Whatever happens, the temporary folder goes with the process.
  process.once('exit', removeDir);

  let stripe: FakeStripe | undefined;
  let panel: FakeMarzneshin | undefined;
  let btcpay: FakeBtcpay | undefined;
  let yookassa: FakeYookassa | undefined;
  let cryptopay: FakeCryptopay | undefined;
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  const closeAll = async (): Promise<void> => {
    // The app first (it stops the job worker, which may be finishing a query), then the database.
    await Promise.allSettled([app?.close()]);
    await Promise.allSettled([db?.destroy()]);
    await Promise.allSettled([stripe?.close(), panel?.close(), btcpay?.close(), yookassa?.close(), cryptopay?.close()]);
    removeDir();
  };

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`\n[demo] ${signal}: shutting down and deleting ${dir}\n`);
    setTimeout(() => {
      process.stderr.write('[demo] shutdown took too long; exiting\n');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    closeAll().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`[demo] error while shutting down: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  try {
    const webhookUrl = `http://${HOST}:${port}/api/webhooks/stripe`;
    stripe = await onPreferredPort('fake Stripe', stripePort, (p) =>
      startFakeStripe({ secretKey: DEMO_STRIPE_KEYS.secretKey, webhookSecret: DEMO_STRIPE_KEYS.webhookSecret, webhookUrl, port: p }),
    );
    panel = await onPreferredPort('fake panel', panelPort, (p) => startFakeMarzneshin({ port: p }));
    btcpay = await onPreferredPort('fake BTCPay Server', btcpayPort, (p) =>
      startFakeBtcpay({ ...DEMO_BTCPAY, webhookUrl: `http://${HOST}:${port}/api/webhooks/btcpay`, port: p }),
    );
    yookassa = await onPreferredPort('fake YooKassa', yookassaPort, (p) =>
      startFakeYookassa({ ...DEMO_YOOKASSA, webhookUrl: `http://${HOST}:${port}/api/webhooks/yookassa`, port: p }),
    );
    cryptopay = await onPreferredPort('fake Crypto Pay', cryptopayPort, (p) =>
      startFakeCryptopay({
        token: DEMO_CRYPTOPAY.apiToken,
        network: DEMO_CRYPTOPAY.network,
        appName: 'Demo shop',
        webhookUrl: `http://${HOST}:${port}/api/webhooks/cryptopay`,
        port: p,
      }),
    );

    // A configuration of our own: nothing from the environment reaches a real mail server or Stripe.
    const config = loadConfig({
      NODE_ENV: 'development',
      PORT: String(port),
      HOST,
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      DATA_DIR: dir,
      ADMIN_EMAILS: adminEmail,
      STRIPE_API_URL: stripe.url,
      // Each customer runs on a test clock of its own: the fake's /test-clocks page advances it to show a renewal.
      STRIPE_TEST_CLOCKS: 'true',
      YOOKASSA_API_URL: `${yookassa.url}/v3`,
      CRYPTOPAY_API_URL: `${cryptopay.url}/api`,
      LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    });
    db = createDb(config.databaseUrl);
    await migrateToLatest(db);
    app = await buildApp({ config, db });
    await seedDemo(app, { panel, btcpayUrl: btcpay.url, adminEmail, localProviders: true });

    await app.listen({ port: config.port, host: config.host });
    await app.services.scheduleRecurringJobs();
    app.jobWorker.start();
    process.stdout.write(banner({ site: config.publicUrl.href, adminEmail, stripe, webhookUrl, btcpay, yookassa, cryptopay, panel, dir }));
  } catch (err) {
    process.stderr.write(`[demo] could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    if (isAddressInUse(err)) process.stderr.write(`[demo] port ${port} is in use: try PORT=3001 npm run demo\n`);
    await closeAll();
    process.exit(1);
  }
}

await main();
