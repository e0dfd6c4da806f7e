import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { asMarzneshinUser, startFakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { startFakeStripe } from '../../../test/fake-stripe/index.js';
import { emptyDatabase, printedCode, startServerProcess, waitForListening, type ServerProcess } from '../../../test/server-process.js';

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

  it('provisions the account after a SIGKILL and a restart', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vpn-restart-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const database = await emptyDatabase(kind, dir);
    cleanups.push(() => database.drop());
    const panel = await startFakeMarzneshin();
    cleanups.push(() => panel.close());
    const stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY, webhookSecret: KEYS.STRIPE_WEBHOOK_SECRET });
    cleanups.push(() => stripe.close());

    const env = { PORT: '0', DATA_DIR: join(dir, 'data'), DATABASE_URL: database.url, ADMIN_EMAILS: 'admin@example.com', STRIPE_API_URL: stripe.url, LOG_LEVEL: 'info', ...KEYS };
    const start = async (): Promise<{ server: ServerProcess; base: string }> => {
      const server = startServerProcess(env);
      cleanups.push(() => void (server.child.exitCode === null && server.child.kill('SIGKILL')));
      const base = await waitForListening(server);
      stripe.setWebhookUrl(`${base}/api/webhooks/stripe`);
      return { server, base };
    };
    let { server, base } = await start();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked by the assertions
    type Json = any;
    const api = async (token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
      const res = await fetch(`${base}${path}`, {
        method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const signIn = async (email: string): Promise<string> => {
      expect((await api(null, 'POST', '/api/auth/otp', { email })).status).toBe(200);
      let code: string | undefined;
      for (let i = 0; i < 50 && !code; i += 1) {
        code = printedCode(server.output(), email);
        if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const verified = await api(null, 'POST', '/api/auth/verify', { email, code, client: 'desktop' });
      expect(verified.status).toBe(200);
      return verified.body.accessToken;
    };

    const admin = await signIn('admin@example.com');
    expect((await api(admin, 'POST', '/api/admin/servers', { kind: 'marzneshin', name: 'DE', url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1', locations: 'all' })).status).toBe(201);
    const plan = await api(admin, 'POST', '/api/admin/plans', { name: 'Monthly', days: 30, dataLimitBytes: 1024 ** 3, price: 599 });
    expect((await api(null, 'GET', '/api/config')).body).toMatchObject({ cardPaymentsEnabled: true, stripePublishableKey: KEYS.STRIPE_PUBLISHABLE_KEY });

    const user = await signIn('buyer@example.com');
    const started = await api(user, 'POST', '/api/checkout', { planId: plan.body.id });
    expect(started.status).toBe(200);
    panel.faults.down = true;
    await stripe.pay(started.body.sessionId);
    expect(stripe.deliveries.at(-1)?.status).toBe(200);
    expect((await api(user, 'GET', `/api/checkout/${started.body.sessionId}`)).body).toMatchObject({ status: 'succeeded' });
    // Give the worker time to try and fail against the dead panel, then kill the process outright.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull();
    // Really gone: nothing answers on its address any more (no worker of it can finish the job).
    await expect(fetch(`${base}/api/health`)).rejects.toThrow();

    panel.faults.down = false;
    ({ server, base } = await start());
    let status: { status: string; account?: { status: string; username: string; id: string } } | undefined;
    const deadline = Date.now() + 40_000;
    while (Date.now() < deadline && !status?.account) {
      status = (await api(user, 'GET', `/api/checkout/${started.body.sessionId}`)).body;
      if (!status?.account) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
    expect([...panel.users.values()].filter((u) => asMarzneshinUser(u).note === status!.account!.id)).toHaveLength(1);
    expect((await api(user, 'GET', '/api/transactions')).body).toEqual([expect.objectContaining({ status: 'succeeded', amount: 599 })]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
