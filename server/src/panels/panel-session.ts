import { PanelError } from './panel-driver.js';
import { expectJsonObject, failureFor, panelFetch, type PanelRequest, type PanelResponse } from './panel-http.js';

/** Log in again this long before the token's `exp`. */
const RENEW_BEFORE_SECONDS = 60;

export interface PanelSessionOptions {
  baseUrl: string;
  /** The login route: /api/admins/token (Marzneshin) or /api/admin/token (Marzban). */
  tokenPath: string;
  username: string;
  password: string;
  timeoutMs?: number;
  now?: () => Date;
}

/** The `exp` of a JWT in seconds, read without verifying (the panel verifies it). */
function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An admin session with one panel: the token is cached and renewed before it expires, one login at
 * a time (concurrent callers share it), and a 401 logs in again and retries the call once.
 */
export class PanelSession {
  private token: string | undefined;
  private expiresAt: number | undefined;
  private loggingIn: Promise<string> | undefined;

  constructor(private readonly options: PanelSessionOptions) {}

  private nowSeconds(): number {
    return (this.options.now?.() ?? new Date()).getTime() / 1000;
  }

  /** An absolute URL as is; a path appended to the panel's base URL (which may have a path prefix). */
  url(path: string): string {
    if (/^https?:\/\//i.test(path)) return path;
    return `${this.options.baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  }

  /** Logs in now (the credential test), replacing any cached token. */
  async login(): Promise<string> {
    this.loggingIn ??= this.requestToken().finally(() => {
      this.loggingIn = undefined;
    });
    return this.loggingIn;
  }

  private async requestToken(): Promise<string> {
    const body = new URLSearchParams({ grant_type: 'password', username: this.options.username, password: this.options.password });
    const response = await panelFetch(this.url(this.options.tokenPath), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: body.toString(),
      timeoutMs: this.options.timeoutMs,
    });
    if (response.status !== 200) {
      const failure = failureFor(response, 'Login');
      throw response.status === 401 || response.status === 403 ? new PanelError('auth', failure.message, response.status) : failure;
    }
    const token = expectJsonObject(response, 'Login').access_token;
    if (typeof token !== 'string' || token === '') throw new PanelError('invalid_response', 'No access token received from master server');
    this.token = token;
    this.expiresAt = tokenExpiry(token);
    return token;
  }

  private async currentToken(): Promise<string> {
    const fresh = this.token && (this.expiresAt === undefined || this.expiresAt - this.nowSeconds() > RENEW_BEFORE_SECONDS);
    return fresh ? this.token! : this.login();
  }

  /** An authenticated call; a 401 means the token went stale: log in again and retry once. */
  async request(path: string, request: Omit<PanelRequest, 'timeoutMs'> & { json?: unknown }): Promise<PanelResponse> {
    const send = (token: string) =>
      panelFetch(this.url(path), {
        method: request.method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${token}`,
          ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...request.headers,
        },
        body: request.json !== undefined ? JSON.stringify(request.json) : request.body,
        timeoutMs: this.options.timeoutMs,
      });
    const first = await send(await this.currentToken());
    if (first.status !== 401) return first;
    this.token = undefined;
    return send(await this.login());
  }

  /** An unauthenticated GET (public subscription routes), absolute or relative to the panel. */
  async fetchPublic(urlOrPath: string, headers: Record<string, string> = {}): Promise<PanelResponse> {
    return panelFetch(this.url(urlOrPath), { method: 'GET', headers, timeoutMs: this.options.timeoutMs });
  }
}
