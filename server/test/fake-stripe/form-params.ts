/**
 * Validation of decoded form parameters the way Stripe's API words its 400s (`param`, `code`, message),
 * shared by every endpoint of the fake.
 */
import { asList, isHash, type FormHash, type FormValue } from './form-body.js';
import { invalidParam, missingParam, StripeApiError } from './stripe-errors.js';

/** 400 for something Stripe accepts but the fake does not model. */
export function unsupported(param: string, what: string): StripeApiError {
  return invalidParam(param, `The fake Stripe server does not support ${what}.`);
}

/**
 * 400 parameter_unknown when `hash` has keys not in `known` (`prefix` names the enclosing hash): Stripe names the
 * first in `param` and lists them all in the message.
 */
export function rejectUnknown(hash: FormHash, known: Set<string>, prefix: string): void {
  const unknown = Object.keys(hash)
    .filter((key) => !known.has(key))
    .map((key) => (prefix ? `${prefix}[${key}]` : key));
  if (unknown.length === 0) return;
  const message = unknown.length === 1 ? `Received unknown parameter: ${unknown[0]}` : `Received unknown parameters: ${unknown.join(', ')}`;
  throw invalidParam(unknown[0]!, message, 'parameter_unknown');
}

export function emptyString(param: string): StripeApiError {
  return invalidParam(
    param,
    `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
    'parameter_invalid_empty',
  );
}

/** A string parameter: undefined when absent; a hash or (unless allowed) an empty string is a 400. */
export function optionalString(value: FormValue | undefined, param: string): string | undefined {
  if (value === undefined) return undefined;
  if (isHash(value)) throw invalidParam(param, `Invalid string: ${param} must be a string, not a hash`);
  if (value === '') throw emptyString(param);
  return value;
}

export function requiredString(value: FormValue | undefined, param: string): string {
  const text = optionalString(value, param);
  if (text === undefined) throw missingParam(param);
  return text;
}

/** `true` or `false`; undefined when absent. */
export function booleanParam(value: FormValue | undefined, param: string): boolean | undefined {
  const text = optionalString(value, param);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw invalidParam(param, `Invalid boolean: ${text}`);
  return text === 'true';
}

export function hashParam(value: FormValue | undefined, param: string): FormHash | undefined {
  if (value === undefined) return undefined;
  if (!isHash(value)) throw invalidParam(param, `Invalid object: ${param} must be a hash`);
  return value;
}

export function listParam(value: FormValue | undefined, param: string): FormValue[] | undefined {
  const hash = hashParam(value, param);
  if (!hash) return undefined;
  const list = asList(hash);
  if (!list) throw invalidParam(param, `Invalid array: ${param} must be an array indexed from 0`);
  return list;
}

export function integerParam(value: FormValue | undefined, param: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const text = optionalString(value, param);
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw invalidParam(param, `Invalid integer: ${text}`, 'parameter_invalid_integer');
  }
  const n = Number(text);
  if (n < min) throw invalidParam(param, `This value must be greater than or equal to ${min}.`);
  if (n > max) throw invalidParam(param, `This value must be less than or equal to ${max}.`);
  return n;
}

export function urlParam(value: FormValue | undefined, param: string): string | undefined {
  const text = optionalString(value, param);
  if (text === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw invalidParam(param, 'Not a valid URL', 'url_invalid');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidParam(param, 'Not a valid URL', 'url_invalid');
  return text;
}

export function metadataParam(value: FormValue | undefined, param: string): Record<string, string> {
  if (value === undefined || value === '') return {};
  const hash = hashParam(value, param)!;
  const keys = Object.keys(hash);
  if (keys.length > 50) throw invalidParam(param, 'You can specify up to 50 keys in metadata.');
  const metadata: Record<string, string> = {};
  for (const key of keys) {
    const entry = hash[key]!;
    const entryParam = `${param}[${key}]`;
    if (isHash(entry)) throw invalidParam(entryParam, 'Metadata values must be strings.');
    if (key.length > 40) throw invalidParam(entryParam, 'Metadata keys can have a maximum length of 40 characters.');
    if (entry.length > 500) throw invalidParam(entryParam, 'Metadata values can have a maximum length of 500 characters.');
    // An empty value unsets a key, so on create it is simply absent.
    if (entry !== '') metadata[key] = entry;
  }
  return metadata;
}

/**
 * `expand[]`: the paths asked for, each of which must be in `allowed`. Stripe answers any other path with
 * "This property cannot be expanded"; the fake also says so for paths it could expand but does not.
 */
export function expandParam(value: FormValue | undefined, allowed: readonly string[]): Set<string> {
  const list = listParam(value, 'expand') ?? [];
  const paths = list.map((path, i) => requiredString(path, `expand[${i}]`));
  for (const path of paths) {
    if (!allowed.includes(path)) {
      const also = allowed.length > 0 ? ` (the fake Stripe server expands only ${allowed.join(', ')} here)` : ' (the fake Stripe server expands nothing here)';
      throw invalidParam('expand', `This property cannot be expanded (${path}).${also}`);
    }
  }
  return new Set(paths);
}

/** A retrieve endpoint's parameters: nothing but `expand` (limited to `allowed`). */
export function retrieveParams(params: FormHash, allowed: readonly string[] = []): Set<string> {
  rejectUnknown(params, new Set(['expand']), '');
  return expandParam(params.expand, allowed);
}
