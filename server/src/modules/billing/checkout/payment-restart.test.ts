import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../../../../test/fake-panels/marzneshin.js';
import { startFakeStripe } from '../../../../test/fake-stripe/index.js';
import { emptyDatabase, printedCode, startServerProcess, waitForListening, type ServerProcess } from '../../../../test/server-process.js';

const LEASE_SECONDS = 10;
const KEYS = { STRIPE_PUBLISHABLE_KEY: 'pk_test_restart', STRIPE_SECRET_KEY: 'sk_test_restart0123456789', STRIPE_WEBHOOK_SECRET: 'whsec_restart0123456789' };

/**
 * The real server process, killed with SIGKILL after a payment was confirmed but before its account
 * could be provisioned (the panel was down), then started again on the same database: the account
 * appears, once. The keys come from the environment (STRIPE_* override the admin's settings).
 */
describe.each(TEST_DATABASES)('a paid order survives a killed server (%s)', (kind) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  type Json = any;

  /** A real server process on a fresh database, with a fake panel and Stripe, an admin, a server and a paid plan. */
  async function startShop() {
    const dir = mkdtempSync(join(tmpdir(), 'vpn-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const database = await emptyDatabase(kind, dir);
    cleanups.push(() => database.drop());
    const panel = await startFakeMarzneshin();
    cleanups.push(() => panel.close());
    const stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY, webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET });
    cleanups.push(() => stripe.close());

    // Jobs a killed process held are taken back after JOB_LEASE_SECONDS (a minute by default; 10 s here).
    const env = {
      PORT: '0',
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: database.url,
      ADMIN_EMAILS: 'admin@example.com',
      STRIPE_API_URL: stripe.url,
      LOG_LEVEL: 'info',
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      ...KEYS,
    };
    const shop = { panel, stripe, server: undefined as unknown as ServerProcess, base: '', planId: '' };
    const start = async (): Promise<void> => {
      const server = startServerProcess(env);
      cleanups.push(() => void (server.child.exitCode === null && server.child.kill('SIGKILL')));
      shop.base = await waitForListening(server);
      shop.server = server;
      stripe.setWebhookUrl(`${shop.base}/api/webhooks/stripe`);
    };
    const api = async (token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
      const res = await fetch(`${shop.base}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const signIn = async (email: string): Promise<string> => {
      expect((await api(null, 'POST', '/api/auth/otp', { email })).status).toBe(200);
      let code: string | undefined;
      for (let i = 0; i < 50 && !code; i += 1) {
        code = printedCode(shop.server.output(), email);
        if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const verified = await api(null, 'POST', '/api/auth/verify', { email, code, client: 'desktop' });
      expect(verified.status).toBe(200);
      return verified.body.accessToken;
    };
    /** SIGKILL, and really gone: nothing answers on its address any more (no worker of it can finish a job). */
    const kill = async () => {
      shop.server.child.kill('SIGKILL');
      expect(await shop.server.exited).toBeNull();
      await expect(fetch(`${shop.base}/api/health`)).rejects.toThrow();
    };
    /** The checkout's answer once its account is there, or the last answer at the deadline. */
    const waitForAccount = async (user: string, sessionId: string, withinMs: number) => {
      let status: { status: string; account?: { status: string; username: string; id: string } } | undefined;
      const deadline = Date.now() + withinMs;
      while (Date.now() < deadline && !status?.account) {
        status = (await api(user, 'GET', `/api/checkout/${sessionId}`)).body;
        if (!status?.account) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return status;
    };

    await start();
    const admin = await signIn('admin@example.com');
    expect(
      (
        await api(admin, 'POST', '/api/admin/servers', {
          kind: 'marzneshin',
          name: 'DE',
          url: panel.url,
          username: panel.admin.username,
          password: panel.admin.password,
          serviceId: '1',
          locations: 'all',
        })
      ).status,
    ).toBe(201);
    const plan = await api(admin, 'POST', '/api/admin/plans', { name: 'Monthly', days: 30, dataLimitBytes: 1024 ** 3, price: 599 });
    shop.planId = plan.body.id;
    expect((await api(null, 'GET', '/api/config')).body).toMatchObject({ cardPaymentsEnabled: true, stripePublishableKey: KEYS.STRIPE_PUBLISHABLE_KEY });
    return Object.assign(shop, { start, api, signIn, kill, waitForAccount });
  }

  const ourUsers = (panel: Awaited<ReturnType<typeof startFakeMarzneshin>>, accountId: string) =>
    [...panel.users.values()].filter((u) => asMarzneshinUser(u).note === accountId);

  it('provisions the account after a SIGKILL and a restart', { timeout: 90_000 }, async () => {
    const shop = await startShop();
    const { panel, stripe, api, signIn, start, kill, waitForAccount, planId } = shop;
    const user = await signIn('buyer@example.com');
    const started = await api(user, 'POST', '/api/checkout', { planId });
    expect(started.status).toBe(200);
    panel.faults.down = true;
    await stripe.pay(started.body.sessionId);
    expect(stripe.deliveries.at(-1)?.status).toBe(200);
    expect((await api(user, 'GET', `/api/checkout/${started.body.sessionId}`)).body).toMatchObject({ status: 'succeeded' });
    // Give the worker time to try and fail against the dead panel, then kill the process outright.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await kill();

    panel.faults.down = false;
    await start();
    const status = await waitForAccount(user, started.body.sessionId, 40_000);
    expect(status).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
    expect(ourUsers(panel, status!.account!.id)).toHaveLength(1);
    expect((await api(user, 'GET', '/api/transactions')).body).toEqual([expect.objectContaining({ status: 'succeeded', amount: 599 })]);
    shop.server.child.kill('SIGTERM');
    expect(await shop.server.exited).toBe(0);
  });

  it(
    'a SIGKILL while the provisioning job runs: the restarted server takes the job back once its lease runs out, and delivers',
    { timeout: 90_000 },
    async () => {
      const shop = await startShop();
      const { panel, stripe, api, signIn, start, kill, waitForAccount, planId } = shop;
      const user = await signIn('buyer@example.com');
      const started = await api(user, 'POST', '/api/checkout', { planId });
      expect(started.status).toBe(200);
      // The panel answers slowly: the job is running, mid-call, when the process dies.
      panel.faults.delayMs = 8_000;
      await stripe.pay(started.body.sessionId);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(shop.server.output()).not.toMatch(/job failed/);
      await kill();

      panel.faults.delayMs = 0;
      const restartedAt = Date.now();
      await start();
      const status = await waitForAccount(user, started.body.sessionId, 60_000);
      expect(status).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
      // Taken back when the dead process's lease ran out: JOB_LEASE_SECONDS after its last renewal, before the kill.
      expect(Date.now() - restartedAt).toBeLessThan((LEASE_SECONDS + 30) * 1000);
      expect(ourUsers(panel, status!.account!.id)).toHaveLength(1);
    },
  );
});
