/**
 * Decodes the `application/x-www-form-urlencoded` bodies the Stripe SDK sends: bracket notation for nested
 * hashes and arrays (`line_items[0][price_data][unit_amount]=500`, `metadata[plan]=pro`, `expand[]=x`).
 * Everything decodes to nested hashes; `asList` reads an indexed hash (`{0: …, 1: …}`) as an array, the way
 * Stripe's API does. `qs` is not a dependency of this project, hence this small decoder.
 */

/** A decoded form value: a string leaf or a nested hash (null-prototype, so keys such as `__proto__` are inert). */
export type FormValue = string | FormHash;
export interface FormHash {
  [key: string]: FormValue;
}

/** The body could not be decoded (bad percent-encoding, a key both a leaf and a hash, an unbalanced bracket). */
export class FormDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormDecodeError';
  }
}

/** True for a nested hash (not a string leaf). */
export function isHash(value: FormValue | undefined): value is FormHash {
  return typeof value === 'object' && value !== null;
}

function emptyHash(): FormHash {
  return Object.create(null) as FormHash;
}

function decodeComponent(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw new FormDecodeError(`Invalid percent-encoding in ${JSON.stringify(raw)}`);
  }
}

/** `a[b][0][]` → `['a', 'b', '0', '']` (an empty segment means "append"). */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open === -1) return [key];
  if (open === 0) throw new FormDecodeError(`Invalid parameter name ${JSON.stringify(key)}`);
  const segments = [key.slice(0, open)];
  const rest = key.slice(open);
  const pattern = /\[([^[\]]*)\]/y;
  let index = 0;
  while (index < rest.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(rest);
    if (!match) throw new FormDecodeError(`Invalid parameter name ${JSON.stringify(key)}`);
    segments.push(match[1]!);
    index = pattern.lastIndex;
  }
  return segments;
}

function nextIndex(hash: FormHash): string {
  return String(Object.keys(hash).filter((k) => /^\d+$/.test(k)).length);
}

/** Decodes a form body into nested hashes; the last of repeated leaves wins (as Rack does). */
export function decodeForm(body: string): FormHash {
  const root = emptyHash();
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    const segments = splitKey(key);
    let hash = root;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] === '' ? nextIndex(hash) : segments[i]!;
      if (i === segments.length - 1) {
        if (isHash(hash[segment])) throw new FormDecodeError(`Invalid hash: ${key} is both a value and a hash`);
        hash[segment] = value;
      } else {
        const existing = hash[segment];
        if (existing === undefined) {
          const child = emptyHash();
          hash[segment] = child;
          hash = child;
        } else if (isHash(existing)) {
          hash = existing;
        } else {
          throw new FormDecodeError(`Invalid hash: ${segments.slice(0, i + 1).join('.')} is both a value and a hash`);
        }
      }
    }
  }
  return root;
}

/** Reads an indexed hash (`{0: a, 1: b}`) as an array, in index order; null when the keys are not 0…n-1. */
export function asList(value: FormHash): FormValue[] | null {
  const keys = Object.keys(value);
  if (!keys.every((k) => /^(0|[1-9]\d*)$/.test(k))) return null;
  const indexes = keys.map(Number).sort((a, b) => a - b);
  if (!indexes.every((n, i) => n === i)) return null;
  return indexes.map((n) => value[String(n)]!);
}

/** A plain-object, key-sorted copy (for comparing two requests' parameters). */
export function canonicalForm(value: FormValue): string {
  if (!isHash(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalForm(value[k]!)}`).join(',')}}`;
}
