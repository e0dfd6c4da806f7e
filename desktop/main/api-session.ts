/**
 * The desktop app's session with the server, held in the main process. The access token lives in
 * memory only; the refresh token in the OS keychain (session-store.ts, with a working copy in memory).
 * `request` sends the renderer's API calls with `Authorization: Bearer`, renews the access token
 * before it lapses and once after a 401 (one refresh at a time, its rotated refresh token stored),
 * and handles the special paths of the bridge contract (shared/platform-bridge.ts). The renderer
 * never sees a token. Every request carries the app's device headers (device-identity.ts).
 */
import { z } from 'zod';
import type { BridgeRequest, BridgeResponse } from '../../shared/platform-bridge.js';
import { isAllowedApiPath } from './api-paths.js';
import { deviceHeaders, type DeviceDescription } from './device-identity.js';
import type { SessionStore } from './session-store.js';

export interface ApiSession {
  request(call: BridgeRequest): Promise<BridgeResponse>;
  /** Ends the session here and, when the server answers, there too (used when the server changes). */
  signOut(): Promise<void>;
}

export interface ApiSessionOptions {
  store: SessionStore;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; decides when the access token is due for renewal. */
  now?: () => number;
  timeoutMs?: number;
  /** What this machine is (describeThisDevice()); with it, requests carry `x-hwid` and the device headers. */
  device?: DeviceDescription;
}

const PATHS = {
  verify: '/api/auth/verify',
  session: '/api/auth/session',
  logout: '/api/auth/logout',
  refresh: '/api/auth/refresh',
  me: '/api/me',
} as const;
const AUTH_PREFIX = '/api/auth/';
/** Renew this long before the server's expiry, so a request never races the deadline. */
const EXPIRY_MARGIN_MS = 30_000;
const NO_ANSWER: BridgeResponse = { status: 0, body: '' };

const TokenPair = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  expiresIn: z.number().positive(),
});
const DesktopVerifyResponse = TokenPair.extend({
  user: z.looseObject({ email: z.string().min(1).max(254) }),
});

type RefreshOutcome =
  | { kind: 'renewed'; accessToken: string; expiresIn: number }
  /** No refresh token, or the session was signed out while the refresh ran. */
  | { kind: 'none' }
  /** The server refused the refresh token (it is deleted). */
  | { kind: 'refused'; answer: BridgeResponse }
  /** No answer, or an answer that says nothing about the token (429, 5xx). */
  | { kind: 'failed'; answer: BridgeResponse };

const json = (status: number, body: unknown): BridgeResponse => ({ status, body: JSON.stringify(body) });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function createApiSession(options: ApiSessionOptions): ApiSession {
  const { store } = options;
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;

  let accessToken: string | null = null;
  let accessExpiresAt = 0;
  let refreshToken: string | null = null;
  /** Bumped whenever the session ends or starts, so a refresh that finishes late is thrown away. */
  let generation = 0;
  let pendingRefresh: Promise<RefreshOutcome> | null = null;

  async function send(method: string, path: string, body?: unknown, bearer?: string | null): Promise<BridgeResponse> {
    const serverUrl = await store.getServerUrl();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.device) Object.assign(headers, deviceHeaders(await store.getDeviceId(), options.device));
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    try {
      const response = await fetchImpl(new URL(path, serverUrl), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, body: await response.text() };
    } catch {
      return NO_ANSWER;
    }
  }

  function startSession(tokens: z.infer<typeof TokenPair>): void {
    accessToken = tokens.accessToken;
    accessExpiresAt = now() + tokens.expiresIn * 1000 - EXPIRY_MARGIN_MS;
    refreshToken = tokens.refreshToken;
  }

  function forgetSession(): void {
    accessToken = null;
    accessExpiresAt = 0;
    refreshToken = null;
    generation += 1;
  }

  /** Concurrent callers share one refresh: a refresh token is single use. */
  function refreshOnce(): Promise<RefreshOutcome> {
    pendingRefresh ??= refresh().finally(() => {
      pendingRefresh = null;
    });
    return pendingRefresh;
  }

  async function refresh(): Promise<RefreshOutcome> {
    const started = generation;
    const token = refreshToken ?? (await store.readRefreshToken());
    if (!token || started !== generation) return { kind: 'none' };
    const answer = await send('POST', PATHS.refresh, { refreshToken: token });
    if (started !== generation) return { kind: 'none' };
    if (answer.status === 400 || answer.status === 401) {
      forgetSession();
      await store.deleteRefreshToken();
      return { kind: 'refused', answer };
    }
    const tokens = answer.status === 200 ? parseJson(TokenPair, answer.body) : null;
    if (!tokens) return { kind: 'failed', answer };
    startSession(tokens);
    await store.replaceRefreshToken(tokens.refreshToken);
    return { kind: 'renewed', accessToken: tokens.accessToken, expiresIn: tokens.expiresIn };
  }

  const freshAccessToken = (): string | null => (accessToken && now() < accessExpiresAt ? accessToken : null);
  const secondsLeft = () => Math.max(0, Math.round((accessExpiresAt + EXPIRY_MARGIN_MS - now()) / 1000));

  /** The token to send: the fresh one in memory, else a renewed one (`refreshTried`: a refresh was just made). */
  async function usableAccessToken(): Promise<{ token: string | null; refreshTried: boolean }> {
    const fresh = freshAccessToken();
    if (fresh) return { token: fresh, refreshTried: false };
    const outcome = await refreshOnce();
    return { token: outcome.kind === 'renewed' ? outcome.accessToken : null, refreshTried: true };
  }

  /** After the server rejected `rejected`: a token another call renewed meanwhile, or a new refresh. */
  async function renewAfterRejection(rejected: string | null): Promise<RefreshOutcome> {
    const fresh = freshAccessToken();
    if (fresh && fresh !== rejected) return { kind: 'renewed', accessToken: fresh, expiresIn: secondsLeft() };
    accessToken = null;
    return refreshOnce();
  }

  /** Sends with the bearer token; after a 401, refreshes once (unless it just did) and sends again. */
  async function sendAuthorized(call: BridgeRequest): Promise<BridgeResponse> {
    const { token, refreshTried } = await usableAccessToken();
    const answer = await send(call.method, call.path, call.body, token);
    if (answer.status !== 401 || call.path.startsWith(AUTH_PREFIX) || refreshTried) return answer;
    const outcome = await renewAfterRejection(token);
    return outcome.kind === 'renewed' ? send(call.method, call.path, call.body, outcome.accessToken) : answer;
  }

  /** Signs in with `client: "desktop"`: the tokens stay here, the renderer gets `{ user }`. */
  async function verify(body: unknown): Promise<BridgeResponse> {
    const answer = await send('POST', PATHS.verify, { ...(isRecord(body) ? body : {}), client: 'desktop' });
    if (answer.status !== 200) return answer;
    const signedIn = parseJson(DesktopVerifyResponse, answer.body);
    if (!signedIn) return json(502, { code: 'bad_gateway', message: 'The server gave an unexpected answer.' });
    forgetSession();
    startSession(signedIn);
    await store.saveRefreshToken(signedIn.user.email, signedIn.refreshToken);
    return json(200, { user: signedIn.user });
  }

  /** Who is signed in: resumes from the keychain (refresh, then `/api/me`); `{ user: null }` when nobody. */
  async function resumeSession(): Promise<BridgeResponse> {
    let token = freshAccessToken();
    if (!token) {
      const outcome = await refreshOnce();
      if (outcome.kind === 'failed') return outcome.answer;
      if (outcome.kind !== 'renewed') return json(200, { user: null });
      token = outcome.accessToken;
    }
    let me = await send('GET', PATHS.me, undefined, token);
    if (me.status === 401) {
      const outcome = await renewAfterRejection(token);
      if (outcome.kind === 'failed') return outcome.answer;
      if (outcome.kind !== 'renewed') return json(200, { user: null });
      me = await send('GET', PATHS.me, undefined, outcome.accessToken);
      if (me.status === 401) return json(200, { user: null });
    }
    if (me.status !== 200) return me;
    const user = parseJson(z.looseObject({ email: z.string() }), me.body);
    return user ? json(200, { user }) : json(502, { code: 'bad_gateway', message: 'The server gave an unexpected answer.' });
  }

  /**
   * Tells the server (with the refresh token, so a lapsed access token does not matter), then
   * forgets the session here even when the server did not answer. Scope `others` keeps this session.
   */
  async function logout(body: unknown): Promise<BridgeResponse> {
    // Only the main process knows the refresh token: one in the renderer's body is not taken.
    const { refreshToken: _fromRenderer, ...fields } = isRecord(body) ? body : {};
    const token = refreshToken ?? (await store.readRefreshToken());
    const answer = await send('POST', PATHS.logout, { ...fields, ...(token ? { refreshToken: token } : {}) }, accessToken);
    if (fields.scope === 'others' && answer.status >= 200 && answer.status < 300) return answer;
    forgetSession();
    await store.deleteRefreshToken();
    return answer;
  }

  /** The renderer's own refresh call (its API client may make one after a 401): done here, no tokens out. */
  async function refreshForRenderer(): Promise<BridgeResponse> {
    const outcome = await refreshOnce();
    switch (outcome.kind) {
      case 'renewed':
        return json(200, { expiresIn: outcome.expiresIn });
      case 'none':
        return json(401, { code: 'invalid_refresh_token', message: 'You are not signed in.' });
      default:
        return outcome.answer;
    }
  }

  return {
    async request(call) {
      if (!isAllowedApiPath(call.path)) throw new Error(`Refused: ${JSON.stringify(call.path)} is not an allowed API path`);
      const [pathname] = call.path.split('?', 1);
      const route = `${call.method} ${pathname}`;
      if (route === `POST ${PATHS.verify}`) return verify(call.body);
      if (route === `GET ${PATHS.session}`) return resumeSession();
      if (route === `POST ${PATHS.logout}`) return logout(call.body);
      if (route === `POST ${PATHS.refresh}`) return refreshForRenderer();
      return sendAuthorized(call);
    },

    async signOut() {
      await logout({ scope: 'local' });
    },
  };
}

function parseJson<T>(schema: z.ZodType<T>, text: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
