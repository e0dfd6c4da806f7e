/**
 * A method's parameters as Crypto Pay reads them: the query string merged with a JSON, urlencoded or
 * multipart body (the body wins a clash), whatever the HTTP verb. Values are kept as sent; the readers
 * below coerce "true"/"false" and numeric strings, as the API does for query strings and forms.
 */
import { badRequest, CryptopayApiError } from './http.js';

export type Params = Record<string, unknown>;

/** The merged parameters as sent, or a 400 for a body that cannot be read. */
export async function readParams(query: URLSearchParams, body: string | null, contentType: string | null): Promise<Params> {
  // Unverified: the real API's answer to an unreadable or oversized body is not documented.
  if (body === null) throw badRequest('BAD_REQUEST');
  const params: Params = Object.fromEntries(query);
  if (body.trim() === '') return params;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') return { ...params, ...parseJsonObject(body) };
  if (type === 'application/x-www-form-urlencoded') return { ...params, ...Object.fromEntries(new URLSearchParams(body)) };
  if (type === 'multipart/form-data') {
    const form = await new Response(body, { headers: { 'content-type': contentType! } }).formData().catch(() => {
      throw badRequest('BAD_REQUEST');
    });
    for (const [name, value] of form) params[name] = typeof value === 'string' ? value : '';
    return params;
  }
  return params;
}

function parseJsonObject(body: string): Params {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw badRequest('BAD_REQUEST');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('BAD_REQUEST');
  return parsed as Params;
}

/**
 * "true"/"false" as booleans, a numeric string as a number — only when the number writes back to the same
 * text, so "007", "1990.00" and ids beyond 2^53 stay strings and nothing is lost.
 */
export function coerce(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  const number = Number(value);
  return value.trim() !== '' && Number.isFinite(number) && String(number) === value ? number : value;
}

/** The parameter as given, or undefined when missing, null or empty. */
function given(params: Params, name: string): unknown {
  const value = coerce(params[name]);
  return value === undefined || value === null || value === '' ? undefined : value;
}

const invalid = (name: string): CryptopayApiError => badRequest(`${name.toUpperCase()}_INVALID`);

/** A text parameter; a number or boolean is read back as its text (what a query string carried). */
export function optionalString(params: Params, name: string): string | undefined {
  const value = given(params, name);
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalid(name);
}

/** A whole number, or undefined; `<NAME>_INVALID` for anything else. */
export function optionalInteger(params: Params, name: string): number | undefined {
  const value = given(params, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(name);
  return value;
}

export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = given(params, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(name);
  return value;
}

/** A comma-separated list ("USDT,TON"); a JSON array is refused the way the real API refuses it (500 APP_ERROR). */
export function optionalList(params: Params, name: string): string[] | undefined {
  if (Array.isArray(params[name])) throw new CryptopayApiError(500, 'APP_ERROR');
  const text = optionalString(params, name);
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
