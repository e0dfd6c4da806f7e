import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/knex.js';
import type { RateLimits } from '../src/plugins/rate-limit.js';
import type { SmtpCatcher } from './smtp-catcher.js';
import { createTestClock, type TestClock } from './test-clock.js';

export const TEST_ORIGIN = 'http://localhost:3000';
export const TEST_APP_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** Generous limits so a suite's many sign-ins from 127.0.0.1 are not throttled; rate-limit tests pass their own. */
const RELAXED_LIMITS: RateLimits = {
  otpPerIp: { max: 10_000, windowSeconds: 60 },
  otpPerEmail: { max: 10_000, windowSeconds: 60 },
  verifyPerIp: { max: 10_000, windowSeconds: 60 },
  verifyPerEmail: { max: 10_000, windowSeconds: 60 },
  refreshPerIp: { max: 10_000, windowSeconds: 60 },
  checkoutPerUser: { max: 10_000, windowSeconds: 60 },
  subPerIp: { max: 10_000, windowSeconds: 60 },
};

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
}

export async function buildTestApp(options: {
  db: Db;
  smtp?: SmtpCatcher;
  env?: Record<string, string>;
  rateLimits?: Partial<RateLimits>;
  overrides?: Partial<AppOptions>;
  /** Carries time over from an app this one replaces (a restart). */
  clock?: TestClock;
}): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_ORIGIN,
    APP_SECRET: TEST_APP_SECRET,
    // Not the working folder's data/: a folder of this test process (a test that publishes releases names its own).
    DESKTOP_UPDATES_DIR: join(tmpdir(), `vpn-test-desktop-updates-${process.pid}`),
    ...(options.smtp ? { SMTP_URL: options.smtp.url } : {}),
    ...options.env,
  });
  const clock = options.clock ?? createTestClock();
  const app = await buildApp({
    config,
    db: options.db,
    clock: clock.now,
    logger: false,
    rateLimits: { ...RELAXED_LIMITS, ...options.rateLimits },
    ...options.overrides,
  });
  return { app, clock };
}

/** Session cookies from a response, as a Cookie header value. */
export function cookieHeader(response: LightMyRequestResponse): string {
  return response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

export interface WebSession {
  cookie: string;
  userId: string;
}

export interface DesktopSession {
  accessToken: string;
  refreshToken: string;
  userId: string;
}

async function requestAndReadCode(app: FastifyInstance, smtp: SmtpCatcher, clock: TestClock, email: string): Promise<string> {
  const after = smtp.messages.length;
  const sent = await app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
  if (sent.statusCode !== 200) throw new Error(`otp request failed: ${sent.statusCode} ${sent.body}`);
  await smtp.waitFor(email, { after });
  clock.advance(61); // the next request for this address is past the resend cool-down
  return smtp.latestCode(email);
}

/** Signs in through the real endpoints and the real e-mail, as a browser would. */
export async function signInWeb(t: TestApp, smtp: SmtpCatcher, email: string): Promise<WebSession> {
  const code = await requestAndReadCode(t.app, smtp, t.clock, email);
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/verify', headers: { origin: TEST_ORIGIN }, payload: { email, code } });
  if (res.statusCode !== 200) throw new Error(`verify failed: ${res.statusCode} ${res.body}`);
  return { cookie: cookieHeader(res), userId: res.json().user.id };
}

/** Signs in as the desktop app does: tokens in the body, no cookies. */
export async function signInDesktop(t: TestApp, smtp: SmtpCatcher, email: string): Promise<DesktopSession> {
  const code = await requestAndReadCode(t.app, smtp, t.clock, email);
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email, code, client: 'desktop' } });
  if (res.statusCode !== 200) throw new Error(`verify failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { accessToken: body.accessToken, refreshToken: body.refreshToken, userId: body.user.id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
