/**
 * One call of Crypto Pay's API (the Telegram wallet's merchant API, help.crypt.bot/crypto-pay-api): the method in
 * the path, `Crypto-Pay-API-Token`, JSON in, the `{ ok, result | error }` envelope out, a time limit, and every
 * failure as a PaymentProviderError that names what we were doing and Crypto Pay's error name — never the token.
 */
import { PaymentProviderError } from '../payment-driver.js';

export const CRYPTOPAY_API_URLS = { mainnet: 'https://pay.crypt.bot/api', testnet: 'https://testnet-pay.crypt.bot/api' } as const;
export type CryptopayNetwork = keyof typeof CRYPTOPAY_API_URLS;
export const CRYPTOPAY_TIMEOUT_MS = 15_000;
const SNIPPET_CHARS = 300;

export interface CryptopayTarget {
  /** `https://pay.crypt.bot/api`, the testnet's, or the fake's (CRYPTOPAY_API_URL). */
  apiUrl: string;
  token: string;
  timeoutMs?: number;
}

/**
 * `{ ok: false, error: { code, name } }`: the HTTP status is the code. 4xx but 429 is `rejected` (the call was
 * wrong: sending it again will not help); 5xx (`APP_ERROR`, `INTERNAL_SERVER_ERROR`) may pass on another try.
 */
export class CryptopayError extends PaymentProviderError {
  constructor(
    message: string,
    public readonly status: number,
    /** Crypto Pay's error name (`UNAUTHORIZED`, `INVOICE_NOT_FOUND`, …). */
    public readonly errorName: string | null,
  ) {
    super(message, errorName, status >= 400 && status < 500 && status !== 429);
    this.name = 'CryptopayError';
  }
}

const withoutToken = (text: string, token: string) => (token ? text.split(token).join('***') : text);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Calls `method` with `params` (lists already joined with commas, as the API takes them) and returns its `result`. */
export async function cryptopayCall<T>(target: CryptopayTarget, what: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const timeoutMs = target.timeoutMs ?? CRYPTOPAY_TIMEOUT_MS;
  let response: Response;
  try {
    response = await fetch(`${target.apiUrl.replace(/\/+$/, '')}/${method}`, {
      method: 'POST',
      headers: { 'crypto-pay-api-token': target.token, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new PaymentProviderError(`${what}: Crypto Pay did not answer within ${Math.round(timeoutMs / 1000)} s`);
    const code = (err as { cause?: { code?: string } }).cause?.code;
    throw new PaymentProviderError(`${what}: Crypto Pay could not be reached${code ? ` (${code})` : ''}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new PaymentProviderError(`${what}: Crypto Pay closed the connection before answering`);
  }
  const body = parseJson(text) as { ok?: unknown; result?: unknown; error?: { code?: unknown; name?: unknown; message?: unknown } } | undefined;
  // Some answers carry ok:false with a 200: the envelope decides, whatever the status.
  if (body && typeof body === 'object' && body.ok === true && response.ok) return body.result as T;
  if (body && typeof body === 'object' && body.ok === false) {
    const errorName = typeof body.error?.name === 'string' ? body.error.name : null;
    const status = typeof body.error?.code === 'number' ? body.error.code : response.status;
    const detail = typeof body.error?.message === 'string' ? `: ${body.error.message}` : '';
    throw new CryptopayError(withoutToken(`${what}: ${errorName ?? `HTTP ${status}`}${detail}`, target.token), status, errorName);
  }
  const snippet = text.trim().slice(0, SNIPPET_CHARS);
  throw new CryptopayError(
    withoutToken(`${what}: Crypto Pay answered HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`, target.token),
    response.status,
    null,
  );
}
