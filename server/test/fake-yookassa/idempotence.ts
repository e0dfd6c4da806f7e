/**
 * The Idempotence-Key every POST must carry. YooKassa remembers a key for 24 hours after its first request:
 * the same request again gets the first answer again (no second payment or refund); another request under
 * the key is refused. The fake keeps one store for its one shop, across endpoints.
 */
import type { FakeClock } from './clock.js';
import { invalidRequest, type HttpAnswer } from './http.js';

export const IDEMPOTENCE_KEY_MAX_LENGTH = 64;
export const IDEMPOTENCE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The key from the header; 400 when it is missing or longer than YooKassa takes. */
export function requireIdempotenceKey(value: string | null): string {
  if (value === null || value === '') throw invalidRequest('Idempotence key is empty', 'Idempotence-Key');
  if (value.length > IDEMPOTENCE_KEY_MAX_LENGTH) {
    throw invalidRequest('Idempotence key is too long. Send the value in accordance with the documentation', 'Idempotence-Key');
  }
  return value;
}

/** JSON with its object keys sorted: two bodies that say the same thing compare equal however they were written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a request is, for comparing it with the key's first request: method, path and the body's meaning. */
export function fingerprintOf(method: string, path: string, body: string): string {
  let meaning: string;
  try {
    meaning = body.trim() === '' ? '{}' : canonical(JSON.parse(body));
  } catch {
    meaning = body;
  }
  return `${method} ${path} ${meaning}`;
}

export interface IdempotenceStore {
  /** The first answer to replay, or null when the key is new (or older than 24 h). Throws 400 when the key was used for another request. */
  replay(key: string, fingerprint: string): HttpAnswer | null;
  /** Remembers a successful answer. 4xx answers are not kept: the docs say to retry those with a new key. */
  save(key: string, fingerprint: string, answer: HttpAnswer): void;
}

export function createIdempotenceStore(clock: FakeClock): IdempotenceStore {
  const saved = new Map<string, { fingerprint: string; answer: HttpAnswer; at: number }>();
  return {
    replay(key, fingerprint) {
      const found = saved.get(key);
      if (!found) return null;
      if (clock.now() - found.at >= IDEMPOTENCE_WINDOW_MS) {
        saved.delete(key);
        return null;
      }
      if (found.fingerprint !== fingerprint) throw invalidRequest('Idempotence key duplicated', 'Idempotence-Key');
      return found.answer;
    },
    save(key, fingerprint, answer) {
      if (answer.status >= 200 && answer.status < 300) saved.set(key, { fingerprint, answer, at: clock.now() });
    },
  };
}
