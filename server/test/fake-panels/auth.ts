import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { detail, type PanelRequest, type PanelResponse } from './http.js';
import type { PanelAdmin } from './types.js';

/** HS256 JWTs signed with node:crypto; rotating the secret invalidates every token issued before. */
export class JwtSigner {
  private secret = randomBytes(32);

  sign(payload: Record<string, unknown>): string {
    const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${head}.${body}.${this.mac(`${head}.${body}`).toString('base64url')}`;
  }

  /** The payload of a valid, unexpired token; null otherwise. */
  verify(token: string): Record<string, unknown> | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [head, body, signature] = parts as [string, string, string];
    const expected = this.mac(`${head}.${body}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
      if (header.alg !== 'HS256') return null;
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (typeof payload.exp === 'number' && Date.now() / 1000 >= payload.exp) return null;
      return payload;
    } catch {
      return null;
    }
  }

  rotate(): void {
    this.secret = randomBytes(32);
  }

  private mac(data: string): Buffer {
    return createHmac('sha256', this.secret).update(data).digest();
  }
}

const BEARER = { 'www-authenticate': 'Bearer' };

export interface AuthenticatedAdmin {
  username: string;
  isSudo: boolean;
}

/**
 * The admin login and token check both panels share (FastAPI's OAuth2PasswordRequestForm and
 * OAuth2PasswordBearer): form login, `Not authenticated` without a bearer token,
 * `Could not validate credentials` for a bad, expired or revoked one.
 */
/** FastAPI's OAuth2PasswordRequestForm: `username` and `password` from a form body, or its 422. */
export function readLoginForm(req: PanelRequest): { username: string; password: string } | PanelResponse {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const form = type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(req.body) : new URLSearchParams();
  const errors: Record<string, string> = {};
  const grantType = form.get('grant_type');
  if (grantType !== null && grantType !== 'password') errors.grant_type = "String should match pattern '^password$'";
  const username = form.get('username');
  const password = form.get('password');
  if (username === null) errors.username = 'Field required';
  if (password === null) errors.password = 'Field required';
  if (username === null || password === null || Object.keys(errors).length > 0) return detail(422, errors);
  return { username, password };
}

export class AdminAuth {
  readonly signer = new JwtSigner();

  constructor(
    private readonly panel: { admin: PanelAdmin; tokenTtlSeconds: number },
    private readonly sudo: boolean,
  ) {}

  /** Checks the login form; returns the token or the error response. */
  login(req: PanelRequest): { token: string; isSudo: boolean } | PanelResponse {
    const form = readLoginForm(req);
    if (isResponse(form)) return form;
    const { username, password } = form;
    if (username !== this.panel.admin.username || password !== this.panel.admin.password) {
      return detail(401, 'Incorrect username or password', BEARER);
    }
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { sub: username, access: this.sudo ? 'sudo' : 'admin', iat: now };
    // Rounded up so a token lives at least tokenTtlSeconds (a 1 s token is never born expired).
    if (this.panel.tokenTtlSeconds > 0) payload.exp = Math.ceil(Date.now() / 1000 + this.panel.tokenTtlSeconds);
    return { token: this.signer.sign(payload), isSudo: this.sudo };
  }

  /** The admin behind the request's bearer token, or the 401 to answer. */
  authenticate(req: PanelRequest): AuthenticatedAdmin | PanelResponse {
    const header = req.headers.authorization ?? '';
    const match = /^bearer\s+(.+)$/i.exec(header.trim());
    if (!match) return detail(401, 'Not authenticated', BEARER);
    const payload = this.signer.verify(match[1]!.trim());
    if (!payload || payload.sub !== this.panel.admin.username || (payload.access !== 'sudo' && payload.access !== 'admin')) {
      return detail(401, 'Could not validate credentials', BEARER);
    }
    return { username: payload.sub, isSudo: payload.access === 'sudo' };
  }
}

export function isResponse(value: unknown): value is PanelResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'contentType' in value;
}
