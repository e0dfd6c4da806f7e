import { detail, type PanelResponse } from './http.js';

/**
 * Pydantic-v2-like checks of a JSON body. Both panels turn validation errors into
 * 422 `{"detail":{"<last loc part>":"<message>"}}`, so errors are kept per field name.
 */

export type Json = Record<string, unknown>;

/** The JSON object in a request body, or the 422 FastAPI answers for a missing or non-object body. */
export function parseJsonObject(body: string): Json | PanelResponse {
  if (body.trim() === '') return detail(422, { body: 'Field required' });
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return detail(422, { body: 'JSON decode error' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return detail(422, { body: 'Input should be a valid dictionary or object to extract fields from' });
  }
  return value as Json;
}

type Opt = { required?: boolean; nullable?: boolean };

export class BodyCheck {
  readonly errors: Record<string, string> = {};

  constructor(readonly body: Json) {}

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.body, key);
  }

  get ok(): boolean {
    return Object.keys(this.errors).length === 0;
  }

  response(): PanelResponse {
    return detail(422, this.errors);
  }

  fail(key: string, message: string): void {
    this.errors[key] ??= message;
  }

  /** undefined = absent (or failed), null = explicit null (when nullable). */
  private present(key: string, opt: Opt): { value: unknown } | null | undefined {
    if (!this.has(key) || this.body[key] === undefined) {
      if (opt.required) this.fail(key, 'Field required');
      return undefined;
    }
    const value = this.body[key];
    if (value === null && opt.nullable !== false) return null;
    return { value };
  }

  str(key: string, opt: Opt & { maxLength?: number; pattern?: RegExp; patternText?: string; lower?: boolean } = {}): string | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    if (typeof got.value !== 'string') return void this.fail(key, 'Input should be a valid string');
    let value = got.value;
    if (opt.lower) value = value.toLowerCase();
    if (opt.maxLength !== undefined && [...value].length > opt.maxLength) {
      return void this.fail(key, `String should have at most ${opt.maxLength} characters`);
    }
    if (opt.pattern && !opt.pattern.test(value)) {
      return void this.fail(key, `String should match pattern '${opt.patternText ?? opt.pattern.source}'`);
    }
    return value;
  }

  int(key: string, opt: Opt & { ge?: number } = {}): number | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    const value = toInt(got.value);
    if (typeof value === 'string') return void this.fail(key, value);
    if (opt.ge !== undefined && value < opt.ge) return void this.fail(key, `Input should be greater than or equal to ${opt.ge}`);
    return value;
  }

  enumOf<T extends string>(key: string, values: readonly T[], opt: Opt = {}): T | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    if (typeof got.value === 'string' && (values as readonly string[]).includes(got.value)) return got.value as T;
    const quoted = values.map((v) => `'${v}'`);
    const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0];
    return void this.fail(key, `Input should be ${list}`);
  }

  datetime(key: string, opt: Opt = {}): Date | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    const value = parseDateTime(got.value);
    if (!value) return void this.fail(key, 'Input should be a valid datetime');
    return value;
  }

  intList(key: string, opt: Opt = {}): number[] | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    if (!Array.isArray(got.value)) return void this.fail(key, 'Input should be a valid list');
    const out: number[] = [];
    got.value.forEach((item, index) => {
      const value = toInt(item);
      if (typeof value === 'string') this.fail(String(index), value);
      else out.push(value);
    });
    return out;
  }

  object(key: string, opt: Opt = {}): Json | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    if (typeof got.value !== 'object' || got.value === null || Array.isArray(got.value)) {
      return void this.fail(key, 'Input should be a valid dictionary');
    }
    return got.value as Json;
  }

  bool(key: string, opt: Opt = {}): boolean | null | undefined {
    const got = this.present(key, opt);
    if (!got) return got;
    if (typeof got.value !== 'boolean') return void this.fail(key, 'Input should be a valid boolean');
    return got.value;
  }
}

/** An integer the way pydantic's lax mode takes it, or the error message. */
export function toInt(value: unknown): number | string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return Number.isInteger(value) ? value : 'Input should be a valid integer, got a number with a fractional part';
  }
  if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number(value);
  if (typeof value === 'string') return 'Input should be a valid integer, unable to parse string as an integer';
  return 'Input should be a valid integer';
}

/** An optional integer query parameter as FastAPI reads it: its value, or undefined with the problem put in `errors`. */
export function readIntQuery(query: URLSearchParams, key: string, errors: Record<string, string>): number | undefined {
  const raw = query.get(key);
  if (raw === null) return undefined;
  const value = toInt(raw);
  if (typeof value === 'string') {
    errors[key] = value;
    return undefined;
  }
  return value;
}

/** Query-string booleans as FastAPI reads them. */
export function parseQueryBool(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (['1', 'true', 'on', 'yes', 't', 'y'].includes(v)) return true;
  if (['0', 'false', 'off', 'no', 'f', 'n'].includes(v)) return false;
  return undefined;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO 8601 (naive = UTC, `Z` or an offset converted to UTC) or unix seconds (milliseconds above 2e10, as pydantic does). */
export function parseDateTime(value: unknown): Date | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return new Date(Math.abs(value) > 2e10 ? value : value * 1000);
  }
  if (typeof value !== 'string') return null;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3) || '0');
  let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(time);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return new Date(time);
}

/** Python's `datetime.isoformat()` of a naive UTC datetime: no `Z`, microseconds only when non-zero. */
export function naiveUtc(date: Date | null): string | null {
  if (!date) return null;
  const iso = date.toISOString();
  const ms = date.getUTCMilliseconds();
  return iso.slice(0, 19) + (ms ? `.${String(ms).padStart(3, '0')}000` : '');
}

export function unixSeconds(date: Date | null): number {
  return date ? Math.floor(date.getTime() / 1000) : 0;
}

/** SQL `ILIKE '%needle%'`: case-insensitive, `_` matches any one character and `%` any run. */
export function ilikeContains(haystack: string, needle: string): boolean {
  const pattern = [...needle].map((ch) => (ch === '_' ? '.' : ch === '%' ? '.*' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(pattern, 'isu').test(haystack);
}
