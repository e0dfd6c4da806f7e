import type { Page } from '@playwright/test';
import type { BridgeHttpMethod, BridgeRequest, BridgeResponse, PlatformBridge, SetServerUrlResult } from '../shared/platform-bridge.js';

/**
 * A stand-in for the desktop app's preload and main process, for loading the built renderer in
 * Chromium. The page gets `window.platform` (the PlatformBridge shape); every call crosses to this
 * Node side through `page.exposeBinding`, which does what the main process does: it sends the API
 * call to the real server with the bearer token it keeps (the page never sees a token), handles
 * verify, session and logout specially, and records what the renderer asked for.
 */

const METHODS: readonly BridgeHttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
export const INSECURE_SERVER_MESSAGE = 'Use https:// (http:// is only allowed for localhost).';

export interface StandInBridge {
  /** The server the stand-in talks to; `setServerUrl` changes it. */
  serverUrl: string;
  /** What `detectClients` answers. */
  clients: string[];
  readonly deepLinks: string[];
  readonly externalUrls: string[];
  readonly serverUrlRequests: string[];
  /** Each API call the renderer made, with what it got back. */
  readonly requests: Array<{ call: BridgeRequest; response: BridgeResponse }>;
  readonly accessToken: string | null;
  readonly refreshToken: string | null;
  /** Like a restart of the app: the access token (in memory) is gone, the refresh token (keychain) stays. */
  forgetAccessToken(): void;
  /** Installs `window.platform` in `page` (call before loading the renderer). */
  install(page: Page): Promise<void>;
  /** Fires the renderer's `onFocus` listeners, as when the window regains focus. */
  emitFocus(page: Page): Promise<void>;
  /** As main does when an update has been downloaded: the status says so and `onUpdateReady` listeners hear it. */
  emitUpdateReady(page: Page, version: string): Promise<void>;
  /** How many times the renderer asked to restart into the update. */
  readonly restarts: number;
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export function createStandInBridge(options: { serverUrl: string; clients?: string[] }): StandInBridge {
  let tokens: Partial<Tokens> = {};
  let readyVersion: string | null = null;
  let restarts = 0;

  async function send(call: BridgeRequest, extraBody?: Record<string, unknown>): Promise<BridgeResponse> {
    const body = extraBody ? { ...(call.body as object | undefined), ...extraBody } : call.body;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (tokens.accessToken) headers.authorization = `Bearer ${tokens.accessToken}`;
    try {
      const response = await fetch(bridge.serverUrl + call.path, {
        method: call.method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.text() };
    } catch {
      return { status: 0, body: '' };
    }
  }

  async function renew(): Promise<boolean> {
    if (!tokens.refreshToken) return false;
    const answer = await fetch(`${bridge.serverUrl}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: tokens.refreshToken }),
    }).catch(() => null);
    if (!answer?.ok) {
      tokens = {};
      return false;
    }
    tokens = (await answer.json()) as Tokens;
    return true;
  }

  async function verify(call: BridgeRequest): Promise<BridgeResponse> {
    const answer = await send(call, { client: 'desktop' });
    if (answer.status !== 200) return answer;
    const { user, accessToken, refreshToken } = JSON.parse(answer.body) as Tokens & { user: unknown };
    tokens = { accessToken, refreshToken };
    return { status: 200, body: JSON.stringify({ user }) };
  }

  async function logout(call: BridgeRequest): Promise<BridgeResponse> {
    const answer = await send(call, { refreshToken: tokens.refreshToken });
    tokens = {};
    return answer;
  }

  async function request(input: unknown): Promise<BridgeResponse> {
    const call = toBridgeRequest(input);
    if (!call) return { status: 400, body: JSON.stringify({ code: 'bad_request', message: 'Refused by the bridge.' }) };
    if (call.method === 'POST' && call.path === '/api/auth/verify') return verify(call);
    if (call.method === 'POST' && call.path === '/api/auth/logout') return logout(call);
    if (call.method === 'GET' && call.path === '/api/auth/session' && !tokens.accessToken) await renew();
    const answer = await send(call);
    if (answer.status === 401 && !call.path.startsWith('/api/auth/') && (await renew())) return send(call);
    return answer;
  }

  function setServerUrl(input: unknown): SetServerUrlResult {
    bridge.serverUrlRequests.push(String(input));
    const result = normaliseServerUrl(String(input));
    if (result.ok && result.serverUrl !== bridge.serverUrl) {
      bridge.serverUrl = result.serverUrl;
      tokens = {};
    }
    return result;
  }

  /** The main process opens https pages, and the configured server's own pages. */
  function openExternal(input: unknown): { opened: boolean } {
    const url = String(input);
    bridge.externalUrls.push(url);
    return { opened: url.startsWith('https://') || url.startsWith(`${bridge.serverUrl}/`) };
  }

  /** Opened only when the link's scheme belongs to a client that is "installed". */
  function openDeepLink(input: unknown): { opened: boolean } {
    const link = String(input);
    bridge.deepLinks.push(link);
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1]?.toLowerCase();
    return { opened: scheme !== undefined && bridge.clients.some((id) => SCHEMES[id] === scheme) };
  }

  const handlers: Record<string, (arg: unknown) => unknown> = {
    request,
    getServerUrl: () => bridge.serverUrl,
    setServerUrl,
    detectClients: () => [...bridge.clients],
    openDeepLink,
    openExternal,
    getUpdateStatus: () => (readyVersion ? { ready: true, version: readyVersion } : { ready: false }),
    restartToUpdate: () => {
      if (!readyVersion) return { restarting: false };
      restarts += 1;
      return { restarting: true };
    },
  };

  const bridge: StandInBridge = {
    serverUrl: options.serverUrl,
    clients: options.clients ?? [],
    deepLinks: [],
    externalUrls: [],
    serverUrlRequests: [],
    requests: [],
    get accessToken() {
      return tokens.accessToken ?? null;
    },
    get refreshToken() {
      return tokens.refreshToken ?? null;
    },
    forgetAccessToken() {
      tokens = { refreshToken: tokens.refreshToken };
    },
    async install(page) {
      await page.exposeBinding('__standInBridge', async (_source, method: string, arg: unknown) => {
        const handler = handlers[method];
        if (!handler) throw new Error(`The stand-in bridge has no ${method}`);
        const result = await handler(arg);
        if (method === 'request') bridge.requests.push({ call: arg as BridgeRequest, response: result as BridgeResponse });
        return result;
      });
      await page.addInitScript(installPageSide);
    },
    async emitFocus(page) {
      await page.evaluate(() => (window as unknown as { __emitFocus: () => void }).__emitFocus());
    },
    async emitUpdateReady(page, version) {
      readyVersion = version;
      await page.evaluate((v) => (window as unknown as { __emitUpdateReady: (version: string) => void }).__emitUpdateReady(v), version);
    },
    get restarts() {
      return restarts;
    },
  };
  return bridge;
}

/** Runs in the page before its scripts: the preload's `window.platform`, forwarding to the Node side. */
function installPageSide(): void {
  type Call = (method: string, arg?: unknown) => Promise<never>;
  const target = window as unknown as {
    __standInBridge: Call;
    __emitFocus: () => void;
    __emitUpdateReady: (version: string) => void;
    platform: PlatformBridge;
  };
  const call: Call = (method, arg) => target.__standInBridge(method, arg);
  const focusListeners = new Set<() => void>();
  const updateListeners = new Set<(version: string) => void>();
  target.platform = {
    request: (request) => call('request', request),
    getServerUrl: () => call('getServerUrl'),
    setServerUrl: (url) => call('setServerUrl', url),
    detectClients: () => call('detectClients'),
    openDeepLink: (link) => call('openDeepLink', link),
    openExternal: (url) => call('openExternal', url),
    onFocus(listener) {
      focusListeners.add(listener);
      return () => focusListeners.delete(listener);
    },
    getUpdateStatus: () => call('getUpdateStatus'),
    onUpdateReady(listener) {
      updateListeners.add(listener);
      return () => updateListeners.delete(listener);
    },
    restartToUpdate: () => call('restartToUpdate'),
  };
  target.__emitFocus = () => focusListeners.forEach((listener) => listener());
  target.__emitUpdateReady = (version) => updateListeners.forEach((listener) => listener(version));
}

function toBridgeRequest(input: unknown): BridgeRequest | null {
  if (typeof input !== 'object' || input === null) return null;
  const { method, path, body } = input as Record<string, unknown>;
  if (!METHODS.includes(method as BridgeHttpMethod) || typeof path !== 'string' || !path.startsWith('/api/')) return null;
  return { method: method as BridgeHttpMethod, path, ...(body === undefined ? {} : { body }) };
}

/** The main process's rule: https, or http for this machine only; stored as the origin. */
function normaliseServerUrl(text: string): SetServerUrlResult {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, message: 'Enter a full address such as https://vpn.example.com.' };
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return { ok: true, serverUrl: url.origin };
  }
  return { ok: false, message: INSECURE_SERVER_MESSAGE };
}

/** The URL scheme of each client id the renderer may be told about. */
const SCHEMES: Record<string, string> = {
  hiddify: 'hiddify',
  'sing-box': 'sing-box',
  'clash-verge': 'clash-verge',
  karing: 'karing',
};
