import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestEnvironment } from '../../server/test/environment.js';
import { buildTestApp, type TestApp } from '../../server/test/test-app.js';
import type { BridgeRequest, BridgeResponse } from '../../shared/platform-bridge.js';
import { createApiSession, type ApiSession } from './api-session.js';
import { createSessionStore, SETTINGS_FILE, type SessionStore } from './session-store.js';
import { createFakeKeyring, type FakeKeyring } from './testing/fake-keyring.js';

/**
 * The main process's API session against the real server (listening on 127.0.0.1) with a fake
 * keychain: what the server received, what the keychain holds, and what the renderer gets back.
 */
const SERVICE = 'com.lumenvpn.desktop';
const env = useTestEnvironment('sqlite');

interface SentRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
  /** x-hwid, x-device-os, x-ver-os, x-device-model as sent. */
  device: Array<string | null>;
}

let t: TestApp;
let serverUrl: string;
let emailCounter = 0;
const newEmail = () => `desktop-${process.pid}-${++emailCounter}@example.com`;

beforeAll(async () => {
  t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.app.close();
});

describe('api session (desktop main process)', () => {
  let dir: string;
  let keyring: FakeKeyring;
  let sent: SentRequest[];
  let clock: number;

  /** A fetch that records what the main process sends, then really sends it. */
  const recordingFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    sent.push({
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      authorization: headers.get('authorization'),
      device: ['x-hwid', 'x-device-os', 'x-ver-os', 'x-device-model'].map((name) => headers.get(name)),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return fetch(input, init);
  };

  const openStore = (server = serverUrl): SessionStore =>
    createSessionStore({ keyring, settingsDir: dir, service: SERVICE, defaultServerUrl: server, warn: () => {} });
  /** A fresh main process: new store and session over the same keychain and settings folder. */
  const startApp = (server = serverUrl): { store: SessionStore; session: ApiSession } => {
    const store = openStore(server);
    return { store, session: createApiSession({ store, fetch: recordingFetch, now: () => clock, timeoutMs: 5000 }) };
  };
  const call = (session: ApiSession, method: BridgeRequest['method'], path: string, body?: unknown): Promise<BridgeResponse> =>
    session.request({ method, path, ...(body === undefined ? {} : { body }) });
  const storedToken = (email: string, server = serverUrl) => keyring.read(SERVICE, `${server} ${email}`);
  const sentTo = (path: string) => sent.filter((request) => request.path === path);

  async function signIn(session: ApiSession, email: string): Promise<BridgeResponse> {
    const after = env.smtp.messages.length;
    expect((await call(session, 'POST', '/api/auth/otp', { email })).status).toBe(200);
    await env.smtp.waitFor(email, { after });
    t.clock.advance(61);
    const code = await env.smtp.latestCode(email);
    return call(session, 'POST', '/api/auth/verify', { email, code });
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'desktop-session-'));
    keyring = createFakeKeyring();
    sent = [];
    clock = Date.now();
  });
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verify signs in as the desktop client, keeps the tokens and gives the renderer { user } only', async () => {
    const { session } = startApp();
    const email = newEmail();
    const res = await signIn(session, email);

    expect(res.status).toBe(200);
    const body = JSON.parse(res.body);
    expect(body).toEqual({ user: expect.objectContaining({ email, role: 'user' }) });
    expect(Object.keys(body)).toEqual(['user']);
    expect(sentTo('/api/auth/verify')[0]?.body).toEqual({ email, code: expect.any(String), client: 'desktop' });

    const refreshToken = storedToken(email);
    expect(refreshToken).toEqual(expect.any(String));
    expect(res.body).not.toContain(refreshToken);

    const me = await call(session, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).email).toBe(email);
    expect(sentTo('/api/me')[0]?.authorization).toMatch(/^Bearer \S+$/);
    expect(me.body).not.toContain(sentTo('/api/me')[0]?.authorization?.slice('Bearer '.length));
  });

  it('passes a refused code through and stores nothing', async () => {
    const { session } = startApp();
    const res = await call(session, 'POST', '/api/auth/verify', { email: newEmail(), code: '000000' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(res.body).code).toEqual(expect.any(String));
    expect(keyring.entries.size).toBe(0);
  });

  it('renews an access token that is about to lapse once, and stores the rotated refresh token', async () => {
    const { session } = startApp();
    const email = newEmail();
    await signIn(session, email);
    const first = storedToken(email);

    clock += 15 * 60 * 1000; // the access token's 900 s are over
    sent = [];
    const me = await call(session, 'GET', '/api/me');

    expect(me.status).toBe(200);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/auth/refresh', 'GET /api/me']);
    expect(sentTo('/api/auth/refresh')[0]?.body).toEqual({ refreshToken: first });
    const rotated = storedToken(email);
    expect(rotated).toEqual(expect.any(String));
    expect(rotated).not.toBe(first);
    // The old refresh token is spent on the server.
    const replay = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: first } });
    expect(replay.statusCode).toBe(401);
  });

  it('refreshes once after a 401 (the server says the token expired) and sends the call again', async () => {
    const { session } = startApp();
    const email = newEmail();
    await signIn(session, email);
    const first = storedToken(email);

    // The server's clock moves past the access token's expiry; the app's own clock does not.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    sent = [];
    const accounts = await call(session, 'GET', '/api/accounts');

    expect(accounts.status).toBe(200);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/accounts', 'POST /api/auth/refresh', 'GET /api/accounts']);
    expect(sent[0]?.authorization).not.toBe(sent[2]?.authorization);
    expect(storedToken(email)).not.toBe(first);
  });

  it('shares one refresh between concurrent calls', async () => {
    const { session } = startApp();
    const email = newEmail();
    await signIn(session, email);
    clock += 15 * 60 * 1000;
    sent = [];

    const answers = await Promise.all([call(session, 'GET', '/api/me'), call(session, 'GET', '/api/accounts'), call(session, 'GET', '/api/me')]);

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(sentTo('/api/auth/refresh')).toHaveLength(1);
  });

  it('resumes the session after a restart from the keychain: refresh, then /api/me', async () => {
    const email = newEmail();
    await signIn(startApp().session, email);
    const beforeRestart = storedToken(email);

    sent = [];
    const { session } = startApp();
    const res = await call(session, 'GET', '/api/auth/session');

    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ user: expect.objectContaining({ email }) });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/auth/refresh', 'GET /api/me']);
    expect(storedToken(email)).not.toBe(beforeRestart);
    expect((await call(session, 'GET', '/api/accounts')).status).toBe(200);
  });

  it('answers { user: null } when there is nothing to resume, without calling the server', async () => {
    const { session } = startApp();
    const res = await call(session, 'GET', '/api/auth/session');
    expect(res).toEqual({ status: 200, body: JSON.stringify({ user: null }) });
    expect(sent).toEqual([]);
  });

  it('deletes a stale keychain entry that the server refuses, and answers { user: null }', async () => {
    const email = newEmail();
    await openStore().saveRefreshToken(email, 'stale-or-revoked-token');
    const { session, store } = startApp();

    const res = await call(session, 'GET', '/api/auth/session');

    expect(res).toEqual({ status: 200, body: JSON.stringify({ user: null }) });
    expect(sentTo('/api/auth/refresh')).toHaveLength(1);
    expect(keyring.entries.size).toBe(0);
    expect(await store.readRefreshToken()).toBeNull();
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'))).toEqual({});
  });

  it('logout ends the session on the server, deletes the keychain entry and forgets the tokens', async () => {
    const { session } = startApp();
    const email = newEmail();
    await signIn(session, email);
    const refreshToken = storedToken(email);

    const res = await call(session, 'POST', '/api/auth/logout', { scope: 'local' });

    expect(res.status).toBe(204);
    expect(sentTo('/api/auth/logout')[0]?.body).toEqual({ scope: 'local', refreshToken });
    expect(keyring.entries.size).toBe(0);
    expect((await call(session, 'GET', '/api/me')).status).toBe(401);
    expect(JSON.parse((await call(session, 'GET', '/api/auth/session')).body)).toEqual({ user: null });
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    expect(refresh.statusCode).toBe(401);
  });

  it('logout still signs out here when the server cannot be reached', async () => {
    const email = newEmail();
    await signIn(startApp().session, email);
    const down = await closedPortUrl();
    // The same keychain entry, but the app now finds no server at that address.
    const { session, store } = startApp();
    await store.setServerUrl(down);
    await store.saveRefreshToken(email, 'token-for-the-unreachable-server');

    const res = await call(session, 'POST', '/api/auth/logout', { scope: 'local' });

    expect(res).toEqual({ status: 0, body: '' });
    expect(keyring.read(SERVICE, `${down} ${email}`)).toBeUndefined();
    expect(await store.readRefreshToken()).toBeNull();
  });

  it('answers the renderer’s own refresh call itself, with no tokens in the answer', async () => {
    const { session } = startApp();
    const email = newEmail();
    await signIn(session, email);

    const res = await call(session, 'POST', '/api/auth/refresh', {});

    expect(res).toEqual({ status: 200, body: JSON.stringify({ expiresIn: 900 }) });
    expect(sentTo('/api/auth/refresh')[0]?.body).toEqual({ refreshToken: expect.any(String) });
  });

  it.each([
    ['/api/admin/users'],
    ['/api/admin'],
    ['/API/Admin/users'],
    ['/api/%61dmin/users'],
    ['/api/../admin/users'],
    ['/sub/abc123'],
    ['/health'],
    ['//evil.example/api/me'],
    ['https://evil.example/api/me'],
  ])('refuses %s without sending anything', async (path) => {
    const { session } = startApp();
    await expect(call(session, 'GET', path)).rejects.toThrow(/Refused/);
    expect(sent).toEqual([]);
  });

  it("sends the app's device id and description with every request, the same after a restart", async () => {
    const device = { os: 'macOS', osVersion: '14.5', model: 'Mac (arm64)' };
    const store = openStore();
    const session = createApiSession({ store, fetch: recordingFetch, now: () => clock, timeoutMs: 5000, device });
    const email = newEmail();
    expect((await signIn(session, email)).status).toBe(200);
    expect((await call(session, 'GET', '/api/accounts')).status).toBe(200);
    const id = await store.getDeviceId();
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const request of sent) expect(request.device, request.path).toEqual([id, 'macOS', '14.5', 'Mac (arm64)']);

    const restarted = openStore();
    const again = createApiSession({ store: restarted, fetch: recordingFetch, now: () => clock, timeoutMs: 5000, device });
    expect((await call(again, 'GET', '/api/auth/session')).status).toBe(200);
    expect(sent.at(-1)!.device[0]).toBe(id);
  });

  it('sends no device headers when it is not given a description', async () => {
    const { session } = startApp();
    await call(session, 'GET', '/api/auth/session');
    expect(sent.every((request) => request.device.every((value) => value === null))).toBe(true);
  });

  it('answers status 0 when the server is down', async () => {
    const { session } = startApp(await closedPortUrl());
    expect(await call(session, 'GET', '/api/config')).toEqual({ status: 0, body: '' });
    expect(await call(session, 'POST', '/api/auth/otp', { email: newEmail() })).toEqual({ status: 0, body: '' });
  });
});

/** An address where nothing listens: a port that was free a moment ago. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
