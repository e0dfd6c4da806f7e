import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMarzban } from './marzban.js';
import { startFakeMarzneshin } from './marzneshin.js';
import { call, decodeJwtPart, login, loginForm, sleep } from './test-client.js';
import type { FakePanel } from './types.js';

/** What both fakes share: auth, route errors, faults and the request log. */
const PANELS = [
  {
    kind: 'marzneshin',
    start: startFakeMarzneshin,
    tokenPath: '/api/admins/token',
    probePath: '/api/admins/current',
    createPath: '/api/users',
    create: (username: string) => ({ username, expire_strategy: 'never', service_ids: [1] }),
  },
  {
    kind: 'marzban',
    start: startFakeMarzban,
    tokenPath: '/api/admin/token',
    probePath: '/api/admin',
    createPath: '/api/user',
    create: (username: string) => ({ username, proxies: { vless: {} }, inbounds: { vless: ['VLESS TCP TLS'] } }),
  },
] as const;

describe.each(PANELS)('fake $kind panel: auth, routes, faults', (p) => {
  let panel: FakePanel;
  beforeEach(async () => {
    panel = await p.start();
  });
  afterEach(async () => {
    await panel.close();
  });

  it('listens on 127.0.0.1 without a trailing slash and has the default admin', () => {
    expect(panel.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(panel.admin).toEqual({ username: 'admin', password: 'admin-pass' });
    expect(panel.tokenTtlSeconds).toBe(86400);
  });

  it('issues an HS256 JWT with exp from the form login', async () => {
    const before = Date.now() / 1000;
    const reply = await call(panel, 'POST', p.tokenPath, loginForm('admin', 'admin-pass'));
    const after = Date.now() / 1000;
    expect(reply.status).toBe(200);
    expect(reply.body.token_type).toBe('bearer');
    if (p.kind === 'marzneshin') expect(reply.body.is_sudo).toBe(true);
    else expect(Object.keys(reply.body).sort()).toEqual(['access_token', 'token_type']);
    const token = reply.body.access_token as string;
    expect(decodeJwtPart(token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = decodeJwtPart(token, 1);
    expect(payload).toMatchObject({ sub: 'admin', access: 'sudo' });
    expect(payload.exp as number).toBeGreaterThanOrEqual(before + 86400);
    expect(payload.exp as number).toBeLessThanOrEqual(after + 86401);
  });

  it('answers the documented 401 bodies', async () => {
    const wrong = await call(panel, 'POST', p.tokenPath, loginForm('admin', 'nope'));
    expect(wrong.status).toBe(401);
    expect(wrong.text).toBe('{"detail":"Incorrect username or password"}');
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');

    const missing = await call(panel, 'GET', p.probePath);
    expect(missing.status).toBe(401);
    expect(missing.text).toBe('{"detail":"Not authenticated"}');

    const bad = await call(panel, 'GET', p.probePath, { token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln' });
    expect(bad.status).toBe(401);
    expect(bad.text).toBe('{"detail":"Could not validate credentials"}');

    const token = await login(panel, p.tokenPath);
    expect((await call(panel, 'GET', p.probePath, { token })).status).toBe(200);
  });

  it('refuses a JSON login with 422 (the login is a form)', async () => {
    const reply = await call(panel, 'POST', p.tokenPath, { json: { username: 'admin', password: 'admin-pass' } });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ detail: { username: 'Field required', password: 'Field required' } });
  });

  it('expires tokens after tokenTtlSeconds', async () => {
    panel.tokenTtlSeconds = 1;
    const before = Date.now() / 1000;
    const token = await login(panel, p.tokenPath);
    const exp = decodeJwtPart(token, 1).exp as number;
    expect(exp).toBeGreaterThanOrEqual(before + 1);
    expect((await call(panel, 'GET', p.probePath, { token })).status).toBe(200);
    await sleep(exp * 1000 - Date.now() + 50);
    const expired = await call(panel, 'GET', p.probePath, { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: 'Could not validate credentials' });
  });

  it('issues tokens without exp when tokenTtlSeconds is 0', async () => {
    panel.tokenTtlSeconds = 0;
    expect(decodeJwtPart(await login(panel, p.tokenPath), 1).exp).toBeUndefined();
  });

  it('invalidates every token on revokeAllTokens, and a new login works', async () => {
    const token = await login(panel, p.tokenPath);
    panel.revokeAllTokens();
    expect((await call(panel, 'GET', p.probePath, { token })).body).toEqual({ detail: 'Could not validate credentials' });
    expect((await call(panel, 'GET', p.probePath, { token: await login(panel, p.tokenPath) })).status).toBe(200);
  });

  it('honours a changed admin password at run time', async () => {
    panel.admin.password = 'rotated';
    expect((await call(panel, 'POST', p.tokenPath, loginForm('admin', 'admin-pass'))).status).toBe(401);
    expect((await call(panel, 'POST', p.tokenPath, loginForm('admin', 'rotated'))).status).toBe(200);
  });

  it('answers unknown routes with 404 {"detail":"Not Found"} and a wrong method with 405', async () => {
    const token = await login(panel, p.tokenPath);
    const unknown = await call(panel, 'GET', '/not-the-api/api/users', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('{"detail":"Not Found"}');
    expect(unknown.contentType).toBe('application/json');
    const wrongMethod = await call(panel, 'PATCH', p.createPath, { token, json: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ detail: 'Method Not Allowed' });
  });

  it('resets every connection while down (ECONNRESET), and recovers', async () => {
    panel.faults.down = true;
    const err = await fetch(`${panel.url}${p.probePath}`).then(
      () => null,
      (e: unknown) => e as Error & { cause?: { code?: string } },
    );
    expect(err?.cause?.code).toBe('ECONNRESET');
    panel.faults.down = false;
    expect((await call(panel, 'GET', p.probePath)).status).toBe(401);
  });

  it('delays every answer by delayMs', async () => {
    panel.faults.delayMs = 300;
    const started = Date.now();
    expect((await call(panel, 'GET', p.probePath)).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers a queued failure once, only for the matching method and path', async () => {
    const token = await login(panel, p.tokenPath);
    panel.faults.failNext.push({ method: 'POST', pathPrefix: p.createPath, status: 500, body: 'Internal Server Error', contentType: 'text/plain' });
    expect((await call(panel, 'GET', p.probePath, { token })).status).toBe(200);
    const failed = await call(panel, 'POST', p.createPath, { token, json: p.create('user_fail') });
    expect(failed.status).toBe(500);
    expect(failed.text).toBe('Internal Server Error');
    expect(failed.contentType).toBe('text/plain');
    expect(panel.users.has('user_fail')).toBe(false);
    expect(panel.faults.failNext).toEqual([]);
    expect((await call(panel, 'POST', p.createPath, { token, json: p.create('user_fail') })).status).toBe(200);
  });

  it('gives queued failures JSON or text defaults', async () => {
    panel.faults.failNext.push({ status: 503 }, { status: 409, body: '{"detail":"User already exists"}' });
    const first = await call(panel, 'GET', p.probePath);
    expect([first.status, first.text, first.contentType]).toEqual([503, 'Internal Server Error', 'text/plain; charset=utf-8']);
    const second = await call(panel, 'GET', p.probePath);
    expect([second.status, second.body, second.contentType]).toEqual([409, { detail: 'User already exists' }, 'application/json']);
  });

  it('logs every request with method, raw path and query, headers and body', async () => {
    await call(panel, 'POST', p.tokenPath, loginForm('admin', 'admin-pass'));
    await call(panel, 'GET', `${p.probePath}?x=1&y=%20`, { headers: { 'x-test': 'yes' } });
    expect(panel.requests).toHaveLength(2);
    expect(panel.requests[0]).toMatchObject({ method: 'POST', path: p.tokenPath, body: 'grant_type=password&username=admin&password=admin-pass' });
    expect(panel.requests[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(panel.requests[1]).toMatchObject({ method: 'GET', path: `${p.probePath}?x=1&y=%20`, body: '' });
    expect(panel.requests[1]!.headers['x-test']).toBe('yes');
  });

  it('answers a non-object JSON body with 422', async () => {
    const token = await login(panel, p.tokenPath);
    expect((await call(panel, 'POST', p.createPath, { token, body: '[1]', headers: { 'content-type': 'application/json' } })).status).toBe(422);
    expect((await call(panel, 'POST', p.createPath, { token, body: '{oops', headers: { 'content-type': 'application/json' } })).status).toBe(422);
  });
});
