/**
 * One Greenfield API call: `Authorization: token <apiKey>`, JSON both ways, a time limit, and every failure
 * as a PaymentProviderError whose message names what we were doing and what BTCPay said — never the key.
 */
import { PaymentProviderError } from '../payment-driver.js';

export const BTCPAY_TIMEOUT_MS = 15_000;
const SNIPPET_CHARS = 300;

export interface GreenfieldTarget {
  /** The server's address without a trailing slash, e.g. `https://btcpay.example.com`. */
  serverUrl: string;
  apiKey: string;
  timeoutMs?: number;
}

/** A Greenfield answer that was not 2xx: the HTTP status and BTCPay's error code (null when it gave none). */
export class GreenfieldError extends PaymentProviderError {
  constructor(
    message: string,
    public readonly status: number,
    code: string | null,
  ) {
    super(message, code, status >= 400 && status < 500 && status !== 408 && status !== 429);
    this.name = 'GreenfieldError';
  }
}

/** `https://btcpay.example.com/` → `https://btcpay.example.com` (so paths join and account keys compare). */
export const normalizeServerUrl = (serverUrl: string): string => serverUrl.trim().replace(/\/+$/, '');

/**
 * The Greenfield URL of `path` (`/api/v1/…`, with its own query if any) on the server, joined as a URL: the
 * server's own path prefix is kept, and nothing of its address (a query, a fragment) can swallow the path.
 */
export function greenfieldUrl(serverUrl: string, path: string): string {
  const url = new URL(serverUrl);
  const [pathname, query] = path.split('?', 2) as [string, string | undefined];
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${pathname}`;
  url.search = query ? `?${query}` : '';
  url.hash = '';
  return url.href;
}

/** BTCPay's two error shapes: `{ code, message }` (ProblemDetails) and `[{ path, message }]` (validation, 422). */
function describeError(body: unknown, text: string, status: number): { code: string | null; reason: string } {
  if (Array.isArray(body)) {
    const reasons = body
      .map((item: { path?: unknown; message?: unknown }) => [item?.path, item?.message].filter((part) => typeof part === 'string' && part).join(': '))
      .filter(Boolean);
    return { code: 'validation-error', reason: reasons.join('; ') || `HTTP ${status}` };
  }
  if (body && typeof body === 'object') {
    const { code, message } = body as { code?: unknown; message?: unknown };
    if (typeof message === 'string' || typeof code === 'string') {
      return { code: typeof code === 'string' ? code : null, reason: typeof message === 'string' ? message : String(code) };
    }
  }
  const snippet = text.trim().slice(0, SNIPPET_CHARS);
  return { code: null, reason: snippet ? `HTTP ${status}: ${snippet}` : `HTTP ${status}` };
}

const withoutKey = (text: string, apiKey: string) => (apiKey ? text.split(apiKey).join('***') : text);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Calls `method path` on the server (path starts with `/api/v1/`) and returns the parsed JSON answer.
 * `what` starts every error message ("Creating the invoice: …").
 */
export async function greenfieldCall<T>(target: GreenfieldTarget, what: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const timeoutMs = target.timeoutMs ?? BTCPAY_TIMEOUT_MS;
  let response: Response;
  try {
    response = await fetch(greenfieldUrl(target.serverUrl, path), {
      method,
      headers: {
        authorization: `token ${target.apiKey}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      // A redirect would carry the key to wherever it points: the admin must give the final address.
      redirect: 'manual',
    });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new PaymentProviderError(`${what}: BTCPay Server did not answer within ${Math.round(timeoutMs / 1000)} s`);
    }
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new PaymentProviderError(`${what}: BTCPay Server could not be reached${code ? ` (${code})` : ''}`);
  }

  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new PaymentProviderError(`${what}: BTCPay Server closed the connection before answering`);
  }
  const json = parseJson(text);
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    throw new GreenfieldError(
      `${what}: BTCPay Server answered a redirect${location ? ` to ${withoutKey(location, target.apiKey)}` : ''} (use the final address)`,
      response.status,
      null,
    );
  }
  if (!response.ok) {
    const { code, reason } = describeError(json, text, response.status);
    throw new GreenfieldError(withoutKey(`${what}: ${reason}`, target.apiKey), response.status, code);
  }
  if (json === undefined || json === null || typeof json !== 'object') {
    throw new PaymentProviderError(`${what}: BTCPay Server answered something that is not JSON (is the server address right?)`);
  }
  return json as T;
}
