import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { createDb, type Db } from '../src/db/knex.js';
import type { CrashPoint } from '../src/lib/crash-points.js';
import type { TestDatabaseKind } from './databases.js';
import { asMarzneshinUser, startFakeMarzneshin, type FakeMarzneshin } from './fake-panels/marzneshin.js';
import { startFakeStripe, type FakeStripe } from './fake-stripe/index.js';
import { startFakeYookassa, type FakeYookassa } from './fake-yookassa/index.js';
import { emptyDatabase, printedCode, startServerProcess, type ServerProcess } from './server-process.js';

/**
 * The real server process (`node --import tsx server/src/main.ts`) on a fresh database, killed with SIGKILL by a
 * crash point (CRASH_AT, test processes only) and started again on the same database: what the crash tests share.
 */

const KEYS = { STRIPE_PUBLISHABLE_KEY: 'pk_test_crash', STRIPE_SECRET_KEY: 'sk_test_crash0123456789', STRIPE_WEBHOOK_SECRET: 'whsec_crash0123456789' };
/** The YooKassa shop of the crash tests (its keys are saved through the admin API). */
export const CRASH_YOOKASSA = { shopId: '771234', secretKey: 'test_crashYooKassaSecretKey0123456789' };
export const GB = 1024 ** 3;
const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;
export type Json = any;

export interface Session {
  token: string;
  userId: string;
}

/** One shop on a fresh database of `kind`, with a fake panel (and fake Stripe or YooKassa), served by one real process at a time. */
export async function createHarness(
  kind: TestDatabaseKind,
  cleanups: Array<() => Promise<void> | void>,
  options: { stripe?: boolean; yookassa?: boolean } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-crash-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const database = await emptyDatabase(kind, dir);
  cleanups.push(() => database.drop());
  const panel: FakeMarzneshin = await startFakeMarzneshin();
  cleanups.push(() => panel.close());
  let stripe: FakeStripe | undefined;
  if (options.stripe) {
    stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY, webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET });
    cleanups.push(() => stripe!.close());
  }
  let yookassa: FakeYookassa | undefined;
  if (options.yookassa) {
    yookassa = await startFakeYookassa(CRASH_YOOKASSA);
    cleanups.push(() => yookassa!.close());
  }
  const baseEnv = {
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: database.url,
    ADMIN_EMAILS: 'admin@example.com',
    LOG_LEVEL: 'info',
    STUCK_ACCOUNT_AFTER_SECONDS: '3',
    STUCK_ACCOUNT_SWEEP_INTERVAL_SECONDS: '1',
    ...(stripe ? { STRIPE_API_URL: stripe.url, STRIPE_TEST_CLOCKS: 'true', ...KEYS } : {}),
    ...(yookassa ? { YOOKASSA_API_URL: `${yookassa.url}/v3` } : {}),
  };
  let server: ServerProcess | undefined;
  let base = '';
  let db: Db | undefined;
  let serverId = '';
  let admin: Session | undefined;

  const h = {
    stripe,
    yookassa,
    get serverId() {
      return serverId;
    },
    db: () => db!,

    /**
     * Starts the real server, armed to kill itself at `crashAt`. A job resumed at start may reach that
     * point before the "listening" line leaves the process (pino writes asynchronously), so dying first
     * counts as started too: what it did is checked in the database.
     */
    async start(crashAt?: CrashPoint): Promise<void> {
      const started = startServerProcess({ ...baseEnv, ...(crashAt ? { CRASH_AT: crashAt } : {}) });
      server = started;
      cleanups.push(() => void (started.child.exitCode === null && started.child.signalCode === null && started.child.kill('SIGKILL')));
      let died = false;
      void started.exited.then(() => (died = true));
      await h.until(async () => died || LISTENING.test(started.output()), 30_000);
      base = LISTENING.exec(started.output())?.[1] ?? '';
      if (base) stripe?.setWebhookUrl(`${base}/api/webhooks/stripe`);
      if (base) yookassa?.setWebhookUrl(`${base}/api/webhooks/yookassa`);
      if (!db) {
        db = createDb(database.url);
        cleanups.push(() => db!.destroy());
      }
    },

    /** The process is gone (killed at its crash point, or now), then a new one starts on the same database. */
    async restart(crashAt?: CrashPoint): Promise<void> {
      if (server!.child.exitCode === null && server!.child.signalCode === null) {
        server!.child.kill('SIGKILL');
        await h.exited();
      }
      // A killed worker's `running` job is taken over once its lock times out (10 minutes): make that now.
      await db!('jobs')
        .where({ status: 'running' })
        .update({ locked_at: new Date(Date.now() - 3600_000) });
      await h.start(crashAt);
    },

    /** Waits for the process to die of its crash point (SIGKILL), and checks it is really gone. */
    async exited(): Promise<void> {
      const code = await Promise.race([server!.exited, sleep(30_000).then(() => 'still running')]);
      expect(code, server!.output().slice(-3000)).toBeNull();
      expect(server!.child.signalCode).toBe('SIGKILL');
      if (base) await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    },

    /** A request during which the server kills itself: it gets no answer. */
    async killedBy(request: Promise<unknown>): Promise<void> {
      await expect(request).rejects.toThrow();
      await h.exited();
    },

    async stop(): Promise<void> {
      server!.child.kill('SIGTERM');
      expect(await server!.exited, server!.output().slice(-3000)).toBe(0);
    },

    async api(session: Session | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(session ? { authorization: `Bearer ${session.token}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },

    async signIn(email: string): Promise<Session> {
      expect((await h.api(null, 'POST', '/api/auth/otp', { email })).status).toBe(200);
      let code: string | undefined;
      await h.until(async () => (code = printedCode(server!.output(), email)) !== undefined);
      const verified = await h.api(null, 'POST', '/api/auth/verify', { email, code, client: 'desktop' });
      expect(verified.status).toBe(200);
      return { token: verified.body.accessToken, userId: verified.body.user.id };
    },

    /** An admin, the panel as a server, a trial plan (set as the trial) and a paid plan. */
    async setUpShop(): Promise<{ trialPlanId: string; paidPlanId: string }> {
      admin = await h.signIn('admin@example.com');
      const server = await h.api(admin, 'POST', '/api/admin/servers', {
        kind: 'marzneshin',
        name: 'DE',
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      });
      expect(server.status).toBe(201);
      serverId = server.body.id;
      const trial = await h.api(admin, 'POST', '/api/admin/plans', {
        name: 'Trial',
        days: 0.125,
        dataLimitBytes: GB,
        price: 0,
        locations: 'all',
        isTrial: true,
      });
      const paid = await h.api(admin, 'POST', '/api/admin/plans', { name: 'Monthly', days: 30, dataLimitBytes: GB, price: 599, locations: 'all' });
      expect([trial.status, paid.status]).toEqual([201, 201]);
      expect((await h.api(admin, 'PUT', '/api/admin/settings', { trialPlanId: trial.body.id })).status).toBe(200);
      return { trialPlanId: trial.body.id, paidPlanId: paid.body.id };
    },

    get admin() {
      return admin;
    },
    panelUsers: () => panel.users.values(),
    rowsOf: (session: Session) => db!('vpn_accounts').where({ user_id: session.userId }).orderBy('created_at'),
    trialUsed: async (session: Session) => Boolean((await db!('user_profiles').where({ id: session.userId }).first()).trial_used),
    /** The account ids in the notes of the panel's users (our marker). */
    markerUsers: () => [...panel.users.values()].map((user) => asMarzneshinUser(user).note),

    /** The clean-up jobs wait 30 s before they look: run them now, and wait until all are done. */
    async runCleanupJobsNow(): Promise<void> {
      await db!('jobs')
        .where({ type: 'cleanup_panel_user' })
        .whereNot({ status: 'done' })
        .update({ run_at: new Date(Date.now() - 1000) });
      await h.until(async () => (await db!('jobs').where({ type: 'cleanup_panel_user' }).whereNot({ status: 'done' })).length === 0);
    },

    async until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; server log:\n${server!.output().slice(-3000)}`);
        await sleep(100);
      }
    },
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;
