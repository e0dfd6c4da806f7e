import { PanelError } from './panel-driver.js';
import { panelFetch, type PanelResponse } from './panel-http.js';

const SNIPPET_BYTES = 500;

/**
 * Outside its development mode Remnawave destroys the socket of any request without `X-Forwarded-For`
 * or whose `X-Forwarded-Proto` is not `https` (src/common/middlewares/proxy-check.middleware.ts): it
 * insists on sitting behind a TLS-terminating reverse proxy. A direct call must claim to be one.
 */
export const FORWARDED_HEADERS: Readonly<Record<string, string>> = { 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' };

/** The panel's error bodies: `{message, errorCode}` from its filters, `{message, statusCode, errors}` for validation. */
interface RemnawaveErrorBody {
  message?: unknown;
  errorCode?: unknown;
  errors?: unknown;
}

const errorBody = (response: PanelResponse): RemnawaveErrorBody => (response.json && typeof response.json === 'object' ? response.json : {});

/** The panel's own error code (`A019`, `A025`, …) when it sent one. */
export function errorCodeOf(response: PanelResponse): string | undefined {
  const code = errorBody(response).errorCode;
  return typeof code === 'string' ? code : undefined;
}

/** What the panel said, in one line: its message, each zod issue as `field: message`, and the error code. */
export function describeRemnawaveFailure(response: PanelResponse): string {
  const body = errorBody(response);
  const issues = Array.isArray(body.errors)
    ? (body.errors as Array<{ path?: unknown; message?: unknown }>).map((issue) => {
        const field = Array.isArray(issue.path) && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        return `${field}${typeof issue.message === 'string' ? issue.message : 'invalid'}`;
      })
    : [];
  const message = Array.isArray(body.message) ? body.message.join('; ') : typeof body.message === 'string' ? body.message : '';
  const code = errorCodeOf(response);
  const parts = [issues.length > 0 ? issues.join('; ') : message].filter(Boolean);
  if (parts.length === 0) parts.push(response.text.trim().slice(0, SNIPPET_BYTES) || `HTTP ${response.status}`);
  return code ? `${parts.join('')} (${code})` : parts.join('');
}

/**
 * The 403 of ScopesGuard / JwtDefaultGuard for an API token that is deleted or lacks the route's scope
 * (Nest's default body `{"message":"Forbidden resource","error":"Forbidden","statusCode":403}`).
 */
export function isForbiddenResource(response: PanelResponse): boolean {
  return response.status === 403 && errorBody(response).message === 'Forbidden resource';
}

/** Nest's own 404 for a route it does not have (`Cannot GET /api/…`), or a 404 page that is not the panel's. */
export function isRouteNotFound(response: PanelResponse): boolean {
  return response.status === 404 && errorCodeOf(response) === undefined;
}

/** Maps an unexpected answer to the PanelError a caller can act on (same kinds as `failureFor`). */
export function remnawaveFailure(response: PanelResponse, action: string): PanelError {
  const reason = describeRemnawaveFailure(response);
  if (response.status === 401)
    return new PanelError('auth', `${action}: the panel refused the API token (${reason}); make a new one under Remnawave Settings → API Tokens`, 401);
  if (response.status === 403) return new PanelError('auth', `${action}: the panel does not allow this API token to do it (${reason})`, 403);
  if (isRouteNotFound(response)) return new PanelError('wrong_url', `${action}: the panel has no such route (wrong URL, or not a Remnawave 3.x panel?)`, 404);
  if (response.status >= 500) return new PanelError('server_error', `${action}: ${reason}`, response.status);
  return new PanelError('rejected', `${action}: ${reason}`, response.status);
}

export const DROPPED_CONNECTION =
  'The panel accepted the connection and closed it without answering. Remnawave does this to every request that ' +
  'does not arrive through its HTTPS reverse proxy (it wants X-Forwarded-For and X-Forwarded-Proto: https, which ' +
  'this server sends). A proxy in front of the panel may be replacing them (e.g. an http:// address: use the ' +
  "panel's https:// address), or this is not a Remnawave API address.";

/** A socket closed after connecting: the proxy check's signature (undici: UND_ERR_SOCKET "other side closed"). */
export function isDroppedConnection(err: unknown): boolean {
  return err instanceof PanelError && err.kind === 'unreachable' && /\(UND_ERR_SOCKET\)|closed the connection/.test(err.message);
}

export interface RemnawaveRequest {
  method: string;
  json?: unknown;
}

/** Every call to one panel: the bearer token, the forwarded headers, JSON in and out, a time limit. */
export function createRemnawaveClient(baseUrl: string, apiToken: string, timeoutMs?: number) {
  const root = baseUrl.replace(/\/+$/, '');
  const url = (path: string) => (/^https?:\/\//i.test(path) ? path : `${root}/${path.replace(/^\/+/, '')}`);
  return {
    url,
    request(path: string, request: RemnawaveRequest): Promise<PanelResponse> {
      return panelFetch(url(path), {
        method: request.method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${apiToken}`,
          ...FORWARDED_HEADERS,
          ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: request.json !== undefined ? JSON.stringify(request.json) : undefined,
        timeoutMs,
      });
    },
  };
}

export type RemnawaveClient = ReturnType<typeof createRemnawaveClient>;
