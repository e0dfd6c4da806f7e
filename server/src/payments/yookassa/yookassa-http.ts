/**
 * One call of YooKassa's API v3: HTTP Basic `shopId:secretKey`, JSON both ways, an `Idempotence-Key` on every
 * POST, a time limit, and every failure as a PaymentProviderError whose message names what we were doing and
 * what YooKassa said — never the key.
 */
import { createHash } from 'node:crypto';
import { PaymentProviderError } from '../payment-driver.js';

export const YOOKASSA_API_URL = 'https://api.yookassa.ru/v3';
export const YOOKASSA_TIMEOUT_MS = 15_000;
/** YooKassa remembers a key for 24 hours and refuses one over 64 characters. */
const MAX_KEY_LENGTH = 64;
const SNIPPET_CHARS = 300;

export interface YookassaTarget {
  /** `https://api.yookassa.ru/v3`, or the fake's `…/v3` (YOOKASSA_API_URL). */
  apiUrl: string;
  shopId: string;
  secretKey: string;
  timeoutMs?: number;
}

/**
 * An answer that was not 2xx: the HTTP status and YooKassa's error code (`invalid_request`, `not_found`, …).
 * 4xx but 429 is `rejected`: the request was wrong and sending it again will not help; 429 and 5xx are
 * "the result is unknown": sent again with the same key, it is the same operation.
 */
export class YookassaError extends PaymentProviderError {
  constructor(
    message: string,
    public readonly status: number,
    code: string | null,
    public readonly parameter: string | null = null,
  ) {
    super(message, code, status >= 400 && status < 500 && status !== 429);
    this.name = 'YookassaError';
  }
}

/** Our keys as YooKassa takes them: at most 64 characters (a longer one is hashed: the same key, the same hash). */
export function idempotenceKeyOf(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : createHash('sha256').update(key).digest('hex');
}

const withoutSecret = (text: string, secret: string) => (secret ? text.split(secret).join('***') : text);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `{ type: "error", id, code, description, parameter }`, or the start of whatever came instead. */
function describeError(body: unknown, text: string, status: number): { code: string | null; reason: string; parameter: string | null } {
  if (body && typeof body === 'object' && (body as { type?: unknown }).type === 'error') {
    const { code, description, parameter } = body as { code?: unknown; description?: unknown; parameter?: unknown };
    const reason = [typeof description === 'string' ? description : null, typeof code === 'string' ? `(${code})` : null].filter(Boolean).join(' ');
    return { code: typeof code === 'string' ? code : null, reason: reason || `HTTP ${status}`, parameter: typeof parameter === 'string' ? parameter : null };
  }
  const snippet = text.trim().slice(0, SNIPPET_CHARS);
  return { code: null, reason: snippet ? `HTTP ${status}: ${snippet}` : `HTTP ${status}`, parameter: null };
}

/**
 * Calls `method path` (`/payments`, `/payments/{id}`, …) and returns the parsed JSON answer. `idempotenceKey`
 * is required for POST: the same key sends the same operation, however often it is sent within 24 hours.
 * `what` starts every error message ("Creating the payment: …").
 */
export async function yookassaCall<T>(
  target: YookassaTarget,
  what: string,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; idempotenceKey?: string; query?: Record<string, string> } = {},
): Promise<T> {
  const timeoutMs = target.timeoutMs ?? YOOKASSA_TIMEOUT_MS;
  const url = new URL(`${target.apiUrl.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  if (method === 'POST' && !options.idempotenceKey) throw new Error(`${what}: a POST to YooKassa needs an idempotence key`);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${target.shopId}:${target.secretKey}`).toString('base64')}`,
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/json', 'idempotence-key': idempotenceKeyOf(options.idempotenceKey!) } : {}),
      },
      body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new PaymentProviderError(`${what}: YooKassa did not answer within ${Math.round(timeoutMs / 1000)} s`);
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new PaymentProviderError(`${what}: YooKassa could not be reached${code ? ` (${code})` : ''}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new PaymentProviderError(`${what}: YooKassa closed the connection before answering`);
  }
  const json = parseJson(text);
  // 202 (an older API's "still processing"): the result is not known yet; the same key asks again.
  if (response.status === 202) throw new YookassaError(`${what}: YooKassa is still processing the request`, 202, 'request_accepted');
  if (!response.ok) {
    const { code, reason, parameter } = describeError(json, text, response.status);
    throw new YookassaError(withoutSecret(`${what}: ${reason}`, target.secretKey), response.status, code, parameter);
  }
  if (json === undefined || json === null || typeof json !== 'object') throw new PaymentProviderError(`${what}: YooKassa answered something that is not JSON`);
  return json as T;
}
