import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, OTP_MAX_ATTEMPTS, OTP_RESEND_COOLDOWN_SECONDS, OTP_TTL_SECONDS } from '../../../../shared/constants.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { bearer, buildTestApp, cookieHeader, signInDesktop, signInWeb, TEST_ORIGIN, type TestApp } from '../../../test/test-app.js';
import { REFRESH_REUSE_GRACE_SECONDS } from './auth.service.js';
import { createOtpRepo } from './otp.repo.js';

describe.each(TEST_DATABASES)('sign-in by e-mail code (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let n = 0;
  const newEmail = () => `user${(n += 1)}-${Date.now()}@example.com`;

  const requestCode = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
  const verify = (email: string, code: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/auth/verify', headers: { origin: TEST_ORIGIN }, payload: { email, code, ...extra } });
  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  beforeEach(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'boss@example.com' } });
  });
  afterEach(async () => {
    env.smtp.rejectAll = false;
    await t.app.close();
  });

  it('delivers a code by SMTP and signs in with it, creating a user profile', async () => {
    const email = newEmail();
    const sent = await requestCode(email.toUpperCase());
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ sent: true });

    const mail = await env.smtp.waitFor(email);
    expect(mail.subject).toMatch(/^\d{6} is your Lumen VPN sign-in code$/);
    expect(mail.raw).toContain('text/plain');
    expect(mail.raw).toContain('text/html');
    const code = await env.smtp.latestCode(email);

    const res = await verify(email, code);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: expect.any(String), email, role: 'user', trialUsed: false, locale: 'en' } });
    const cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
    expect(cookies.vpn_access).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookies.vpn_refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(res.json()).not.toHaveProperty('accessToken');

    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeader(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(res.json().user);
    const profile = await env.database.db('user_profiles').where({ email }).first();
    expect(profile).toMatchObject({ role: 'user' });
  });

  it('marks the session cookies Secure when PUBLIC_URL is https', async () => {
    const secure = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { PUBLIC_URL: 'https://vpn.example.com' } });
    const email = newEmail();
    await secure.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
    const code = await env.smtp.latestCode(email);
    const res = await secure.app.inject({ method: 'POST', url: '/api/auth/verify', headers: { origin: 'https://vpn.example.com' }, payload: { email, code } });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.map((c) => [c.name, c.secure])).toEqual([
      ['vpn_access', true],
      ['vpn_refresh', true],
    ]);
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    await secure.app.close();
  });

  it('answers the same for an address with and without an account', async () => {
    const known = newEmail();
    await signInWeb(t, env.smtp, known);
    const forKnown = await requestCode(known);
    const forUnknown = await requestCode(newEmail());
    expect([forKnown.statusCode, forUnknown.statusCode]).toEqual([200, 200]);
    expect(forKnown.body).toBe(forUnknown.body);
  });

  it('stores only a hash of the code', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    const row = await env.database.db('otp_codes').where({ email }).first();
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('burns the code after five wrong tries, says so, and a new code (after the cool-down) works', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i += 1) {
      const wrong = await verify(email, wrongCodeFor(code));
      expect(wrong.statusCode).toBe(400);
      const attemptsLeft = OTP_MAX_ATTEMPTS - 1 - i;
      expect(wrong.json()).toEqual({
        code: 'invalid_code',
        message: 'Invalid code',
        codeStatus: { reason: attemptsLeft > 0 ? 'wrong' : 'locked', attemptsLeft, resendInSeconds: expect.any(Number) },
      });
    }
    const right = await verify(email, code);
    expect(right.statusCode).toBe(400);
    expect(right.json()).toMatchObject({ code: 'invalid_code', message: 'Invalid code', codeStatus: { reason: 'locked', attemptsLeft: 0 } });
    expect(await env.database.db('user_profiles').where({ email }).first()).toBeUndefined();

    t.clock.advance(OTP_RESEND_COOLDOWN_SECONDS);
    expect((await verify(email, code)).json().codeStatus.resendInSeconds).toBe(0);
    const sentBefore = env.smtp.messages.length;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } })).statusCode).toBe(200);
    await env.smtp.waitFor(email, { after: sentBefore });
    expect((await verify(email, await env.smtp.latestCode(email))).statusCode).toBe(200);
  });

  it('never lets parallel guesses past the attempt cap, and then refuses the right code', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((guess) => verify(email, guess)));
    expect(answers.map((a) => a.statusCode)).toEqual(guesses.map(() => 400));
    const row = await env.database.db('otp_codes').where({ email }).first();
    expect(row.attempts).toBe(OTP_MAX_ATTEMPTS);
    expect((await verify(email, code)).statusCode).toBe(400);
    expect(await env.database.db('user_profiles').where({ email }).first()).toBeUndefined();
  });

  it('grants exactly the capped number of attempts to parallel claims', async () => {
    const email = newEmail();
    await requestCode(email);
    const repo = createOtpRepo(env.database.db);
    const active = (await repo.findActiveCode(email, t.clock.now()))!;
    const granted = await Promise.all(Array.from({ length: 12 }, () => repo.claimAttempt(active.id)));
    expect(granted.filter(Boolean)).toHaveLength(OTP_MAX_ATTEMPTS);
    expect(await repo.findActiveCode(email, t.clock.now())).toBeUndefined();
  });

  it('accepts the right code after fewer than five wrong tries', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    for (let i = 0; i < OTP_MAX_ATTEMPTS - 1; i += 1) await verify(email, wrongCodeFor(code));
    expect((await verify(email, code)).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    t.clock.advance(OTP_TTL_SECONDS + 1);
    const res = await verify(email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'invalid_code', message: 'Invalid code', codeStatus: { reason: 'expired', attemptsLeft: 0, resendInSeconds: 0 } });
  });

  it('refuses a code that was already used', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    expect((await verify(email, code)).statusCode).toBe(200);
    const again = await verify(email, code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_code', codeStatus: { reason: 'expired' } });
  });

  it('accepts only one of two simultaneous uses of the same code', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    const results = await Promise.all([verify(email, code), verify(email, code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('answers 429 with Retry-After to a resend within 60 seconds, and sends again after', async () => {
    const email = newEmail();
    expect((await requestCode(email)).statusCode).toBe(200);
    t.clock.advance(30);
    const tooSoon = await requestCode(email);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toEqual({ code: 'rate_limited', message: 'Please wait 30 seconds before requesting a new code.' });
    expect(tooSoon.headers['retry-after']).toBe('30');
    expect(await env.database.db('otp_codes').where({ email }).count({ n: '*' })).toEqual([{ n: 1 }]);

    t.clock.advance(31);
    expect((await requestCode(email)).statusCode).toBe(200);
  });

  it('retires the earlier code when a new one is sent', async () => {
    const email = newEmail();
    await requestCode(email);
    const first = await env.smtp.latestCode(email);
    t.clock.advance(61);
    const after = env.smtp.messages.length;
    await requestCode(email);
    await env.smtp.waitFor(email, { after });
    const second = await env.smtp.latestCode(email);
    if (first !== second) expect((await verify(email, first)).statusCode).toBe(400);
    expect((await verify(email, second)).statusCode).toBe(200);
  });

  it("answers 502 'Failed to send the code' when the mail server refuses, and keeps no code", async () => {
    const email = newEmail();
    env.smtp.rejectAll = true;
    const res = await requestCode(email);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ code: 'mail_failed', message: 'Failed to send the code' });
    expect(await env.database.db('otp_codes').where({ email })).toEqual([]);
    env.smtp.rejectAll = false;
    expect((await requestCode(email)).statusCode).toBe(200);
  });

  it('makes the addresses in ADMIN_EMAILS owners', async () => {
    const session = await signInWeb(t, env.smtp, 'boss@example.com');
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session.cookie } });
    expect(me.json().role).toBe('owner');
  });

  it('returns tokens in the body and sets no cookies for the desktop client', async () => {
    const email = newEmail();
    await requestCode(email);
    const code = await env.smtp.latestCode(email);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { email, code, client: 'desktop' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: expect.objectContaining({ email }),
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
    });
    expect(res.cookies).toEqual([]);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(res.json().accessToken) });
    expect(me.json().email).toBe(email);
  });

  it('answers 401 to /api/me without a session or with a forged token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ code: 'unauthenticated', message: expect.any(String) });
    const forged = await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad') });
    expect(forged.statusCode).toBe(401);
  });

  it('reuses a checked access token only as the exact same string, and only until its expiry', async () => {
    const session = await signInDesktop(t, env.smtp, newEmail());
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect((await me(session.accessToken)).statusCode).toBe(200);
    // The same header and claims under another signature: not the token that was checked.
    const [header, payload, signature] = session.accessToken.split('.');
    // A character in the middle carries six bits of the HMAC (the last one carries padding too).
    const otherSignature = `${signature!.slice(0, 10)}${signature![10] === 'A' ? 'B' : 'A'}${signature!.slice(11)}`;
    expect((await me(`${header}.${payload}.${otherSignature}`)).statusCode).toBe(401);
    expect((await me(session.accessToken)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000 });
    try {
      expect((await me(session.accessToken)).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  describe('refresh tokens', () => {
    const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });

    it('rotates: the new pair works and the old refresh token does not', async () => {
      const session = await signInDesktop(t, env.smtp, newEmail());
      const res = await refresh(session.refreshToken);
      expect(res.statusCode).toBe(200);
      const next = res.json();
      expect(next).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
      expect(next.refreshToken).not.toBe(session.refreshToken);

      const replay = await refresh(session.refreshToken);
      expect(replay.statusCode).toBe(401);
      expect(replay.json().code).toBe('invalid_refresh_token');
      // Within the grace window a replay is taken for two tabs racing: the session survives.
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(next.accessToken) })).statusCode).toBe(200);
      expect((await refresh(next.refreshToken)).statusCode).toBe(200);
    });

    it('revokes the whole session when a rotated token is reused later', async () => {
      const session = await signInDesktop(t, env.smtp, newEmail());
      const next = (await refresh(session.refreshToken)).json();
      t.clock.advance(REFRESH_REUSE_GRACE_SECONDS + 1);

      const reuse = await refresh(session.refreshToken);
      expect(reuse.statusCode).toBe(401);
      expect((await refresh(next.refreshToken)).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: bearer(next.accessToken) })).statusCode).toBe(401);
      const row = await env.database.db('sessions').where({ user_id: session.userId }).first();
      expect(row.revoked_reason).toBe('token_reuse');
    });

    it('refreshes a web session from its cookie and sets new cookies', async () => {
      const session = await signInWeb(t, env.smtp, newEmail());
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: session.cookie, origin: TEST_ORIGIN } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ expiresIn: 900 });
      expect(res.cookies.map((c) => c.name).sort()).toEqual(['vpn_access', 'vpn_refresh']);
      const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeader(res) } });
      expect(me.statusCode).toBe(200);
    });

    it('answers 401 to an unknown, missing or expired refresh token', async () => {
      expect((await refresh('not-a-real-token')).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: {} })).statusCode).toBe(401);
      const session = await signInDesktop(t, env.smtp, newEmail());
      t.clock.advance(31 * 24 * 3600);
      expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    });
  });

  describe('the session check', () => {
    const session = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} });

    it('answers 200 with user null to a signed-out visitor', async () => {
      const res = await session();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ user: null });
    });

    it('answers with the user for a live session', async () => {
      const email = newEmail();
      const web = await signInWeb(t, env.smtp, email);
      expect((await session(web.cookie)).json()).toEqual({ user: expect.objectContaining({ email, role: 'user' }) });
    });

    it('renews a lapsed access cookie from the refresh cookie', async () => {
      const email = newEmail();
      const web = await signInWeb(t, env.smtp, email);
      const refreshOnly = web.cookie
        .split('; ')
        .filter((c) => c.startsWith('vpn_refresh='))
        .join('; ');
      const res = await session(refreshOnly);
      expect(res.json()).toEqual({ user: expect.objectContaining({ email }) });
      expect(res.cookies.map((c) => c.name).sort()).toEqual(['vpn_access', 'vpn_refresh']);
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: cookieHeader(res) } })).statusCode).toBe(200);
    });

    it('clears the cookies and answers user null when the refresh cookie is no good', async () => {
      const res = await session('vpn_refresh=stolen-or-stale');
      expect(res.json()).toEqual({ user: null });
      expect(res.cookies.every((c) => c.value === '')).toBe(true);
    });
  });

  describe('logout', () => {
    const logout = (headers: Record<string, string>, scope?: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: TEST_ORIGIN, ...headers }, payload: scope ? { scope } : {} });
    const meStatus = async (headers: Record<string, string>) => (await t.app.inject({ method: 'GET', url: '/api/me', headers })).statusCode;

    it('local: ends this session only and clears the cookies', async () => {
      const email = newEmail();
      const web = await signInWeb(t, env.smtp, email);
      const desktop = await signInDesktop(t, env.smtp, email);
      const res = await logout({ cookie: web.cookie });
      expect(res.statusCode).toBe(204);
      expect(res.cookies.every((c) => c.value === '' && new Date(c.expires ?? 0).getTime() <= Date.now())).toBe(true);
      expect(await meStatus({ cookie: web.cookie })).toBe(401);
      expect(await meStatus(bearer(desktop.accessToken))).toBe(200);
    });

    it('global: ends every session of the user, including other devices', async () => {
      const email = newEmail();
      const web = await signInWeb(t, env.smtp, email);
      const desktop = await signInDesktop(t, env.smtp, email);
      const other = await signInWeb(t, env.smtp, newEmail());
      expect((await logout({ cookie: web.cookie }, 'global')).statusCode).toBe(204);
      expect(await meStatus({ cookie: web.cookie })).toBe(401);
      expect(await meStatus(bearer(desktop.accessToken))).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: desktop.refreshToken } })).statusCode).toBe(401);
      expect(await meStatus({ cookie: other.cookie })).toBe(200);
    });

    it('others: ends the other sessions and keeps this one', async () => {
      const email = newEmail();
      const desktop = await signInDesktop(t, env.smtp, email);
      const web = await signInWeb(t, env.smtp, email);
      const res = await logout(bearer(desktop.accessToken), 'others');
      expect(res.statusCode).toBe(204);
      expect(await meStatus(bearer(desktop.accessToken))).toBe(200);
      expect(await meStatus({ cookie: web.cookie })).toBe(401);
    });

    it('signs a desktop session out with only its refresh token', async () => {
      const desktop = await signInDesktop(t, env.smtp, newEmail());
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refreshToken: desktop.refreshToken } });
      expect(res.statusCode).toBe(204);
      expect(await meStatus(bearer(desktop.accessToken))).toBe(401);
    });

    it('answers 204 when nobody is signed in, and 400 to an unknown scope', async () => {
      expect((await logout({})).statusCode).toBe(204);
      const bad = await logout({}, 'everyone');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('validation_failed');
    });
  });

  describe('cross-site request protection', () => {
    it('refuses a cookie-authenticated change without an Origin, or from another site', async () => {
      const web = await signInWeb(t, env.smtp, newEmail());
      const noOrigin = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: web.cookie }, payload: {} });
      expect(noOrigin.statusCode).toBe(403);
      expect(noOrigin.json()).toEqual({ code: 'csrf_failed', message: expect.any(String) });
      const evil = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: web.cookie, origin: 'https://evil.example' },
        payload: {},
      });
      expect(evil.statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: web.cookie } })).statusCode).toBe(200);
    });

    it('refuses a sign-in posted from another site', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/otp',
        headers: { origin: 'https://evil.example' },
        payload: { email: newEmail() },
      });
      expect(res.statusCode).toBe(403);
    });
  });
});
