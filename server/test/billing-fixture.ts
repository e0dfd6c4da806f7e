import { afterAll, beforeAll, expect } from 'vitest';
import type { CheckoutStarted } from '../../shared/billing.js';
import type { LightMyRequestResponse } from 'fastify';
import type { AppOptions } from '../src/app.js';
import { createPanelDriver } from '../src/panels/index.js';
import type { TestDatabaseKind } from './databases.js';
import { useTestEnvironment, type TestEnvironment } from './environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from './fake-panels/marzneshin.js';
import { startFakeStripe, type FakeStripe } from './fake-stripe/index.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from './test-app.js';

export const GB = 1024 ** 3;
export const STRIPE_KEYS = {
  publishableKey: 'pk_test_fixturePublishable',
  secretKey: 'sk_test_fixtureSecret0123456789',
  webhookSecret: 'whsec_fixtureWebhookSecret0123456789',
};

/** A panel of another kind for the fixture's server: how to start it, and the server body that adds it. */
export interface FixturePanel {
  start(): Promise<{ server: Record<string, unknown>; close(): Promise<void> }>;
}

export interface BillingFixture {
  env: TestEnvironment;
  t: TestApp;
  panel: FakeMarzneshin;
  stripe: FakeStripe;
  admin: DesktopSession;
  /** A paid plan: 30 days, 10 GB, $4.99. */
  paidPlanId: string;
  /** The same, renewing every month (a Stripe subscription). */
  recurringPlanId: string;
  trialPlanId: string;
  serverId: string;
  call(session: DesktopSession | null, method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  newUser(): Promise<DesktopSession>;
  /** Runs due jobs until none is left; returns how many ran. */
  runJobs(): Promise<number>;
  /** Starts a checkout for the plan (or renewal of the account) and returns its answer. */
  checkout(user: DesktopSession, body: ({ planId: string } | { accountId: string }) & { promoCode?: string; method?: string }): Promise<CheckoutStarted>;
  /** Like a server killed and started again: a new app instance on the same database and panel. */
  restart(): Promise<void>;
  count(table: string, where?: Record<string, unknown>): Promise<number>;
  /** Posts a webhook over real HTTP, as Stripe does. */
  postWebhook(body: string, signature?: string): Promise<{ status: number; body: unknown }>;
  /** Runs a payment action with the webhook endpoint switched off, so the test delivers the events itself. */
  payQuietly<T>(action: () => Promise<T>): Promise<T>;
  /** Buys the paid plan, pays, and provisions it: the new account's id. */
  buyAccount(user: DesktopSession): Promise<string>;
}

/** The address of a path on the fixture's listening app (where a provider's webhooks go). */
export function appAddress(f: BillingFixture, path: string): string {
  const address = f.t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening');
  return `http://127.0.0.1:${address.port}${path}`;
}

/** Posts a webhook body to the app as a provider does (JSON), with its signature header when given. */
export async function postToApp(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * A listening app (Stripe's webhooks arrive over real HTTP) with a fake Marzneshin panel (or `options.panel`) and the fake
 * Stripe behind the real SDK, an admin, a server, a trial and a paid plan, and card payments set up
 * through the admin API. The job worker is not started: tests run jobs with `runJobs()`.
 */
export function useBillingFixture(
  kind: TestDatabaseKind,
  options: {
    configureCard?: boolean;
    panel?: FixturePanel;
    overrides?: () => Partial<AppOptions>;
    /** More environment for the app (read when it starts: a fake provider started by an earlier hook can give its address). */
    env?: () => Record<string, string>;
  } = {},
): BillingFixture {
  const env = useTestEnvironment(kind);
  const f = { env } as BillingFixture;
  let n = 0;
  let otherPanel: Awaited<ReturnType<FixturePanel['start']>> | undefined;

  async function startApp(): Promise<void> {
    f.t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      clock: f.t?.clock,
      env: { ADMIN_EMAILS: 'admin@example.com', STRIPE_API_URL: f.stripe.url, STRIPE_TEST_CLOCKS: 'true', ...options.env?.() },
      overrides: { driverFactory: (k, c) => createPanelDriver(k, c, { timeoutMs: 500 }), ...options.overrides?.() },
    });
    await f.t.app.listen({ host: '127.0.0.1', port: 0 });
    f.stripe.setWebhookUrl(webhookUrl());
  }

  f.call = (session, method, url, payload) =>
    f.t.app.inject({
      method: method as 'GET',
      url,
      headers: session ? bearer(session.accessToken) : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  f.newUser = () => signInDesktop(f.t, env.smtp, `buyer${(n += 1)}-${kind}@example.com`);
  f.runJobs = async () => {
    let ran = 0;
    while (await f.t.app.jobWorker.runOnce()) ran += 1;
    return ran;
  };
  f.checkout = async (user, body) => {
    const res = await f.call(user, 'POST', '/api/checkout', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  f.restart = async () => {
    await f.t.app.close();
    await startApp(); // sessions live in the database: everyone stays signed in
  };
  const webhookUrl = () => {
    const address = f.t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('app is not listening');
    return `http://127.0.0.1:${address.port}/api/webhooks/stripe`;
  };
  f.postWebhook = async (body, signature) => {
    const res = await fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
      body,
    });
    return { status: res.status, body: await res.json() };
  };
  f.payQuietly = async (action) => {
    f.stripe.setWebhookUrl(null);
    try {
      return await action();
    } finally {
      f.stripe.setWebhookUrl(webhookUrl());
    }
  };
  f.buyAccount = async (user) => {
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    return f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
  };
  f.count = async (table, where = {}) => Number((await env.database.db(table).where(where).count({ n: '*' }).first())?.n ?? 0);

  beforeAll(async () => {
    f.panel = await startFakeMarzneshin();
    f.stripe = await startFakeStripe({ secretKey: STRIPE_KEYS.secretKey, webhookSecret: STRIPE_KEYS.webhookSecret });
    await startApp();
    f.admin = await signInDesktop(f.t, env.smtp, 'admin@example.com');
    otherPanel = await options.panel?.start();
    const server = await f.call(
      f.admin,
      'POST',
      '/api/admin/servers',
      otherPanel?.server ?? {
        kind: 'marzneshin',
        name: 'Germany',
        url: f.panel.url,
        username: f.panel.admin.username,
        password: f.panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
    );
    expect(server.statusCode, server.body).toBe(201);
    f.serverId = server.json().id;
    const plan = async (body: Record<string, unknown>) =>
      (await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', ...body })).json().id as string;
    f.trialPlanId = await plan({ name: 'Trial', days: 0.125, dataLimitBytes: GB, price: 0, isTrial: true });
    f.paidPlanId = await plan({ name: 'Plus Monthly', days: 30, dataLimitBytes: 10 * GB, price: 499 });
    f.recurringPlanId = await plan({ name: 'Plus Auto', days: 30, dataLimitBytes: 10 * GB, price: 499, billing: 'recurring' });
    if (options.configureCard !== false) {
      const saved = await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: true, ...STRIPE_KEYS });
      expect(saved.statusCode, saved.body).toBe(200);
    }
  });
  afterAll(async () => {
    await f.t?.app.close();
    await f.stripe?.close();
    await f.panel?.close();
    await otherPanel?.close();
  });
  return f;
}
