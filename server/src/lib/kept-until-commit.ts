import type { CommitToken } from '../db/commit-token.js';
import { LruMap } from './lru-map.js';

interface Kept<V> {
  token: string;
  value: Promise<V>;
  /** When the value, once read, stops being true whatever is committed (see KeptOptions.expiresAt). */
  expiresAt?: number;
}

export interface KeptOptions<V> {
  /** Keys kept at most (least recently used out first). */
  maxKeys?: number;
  /**
   * For an answer that also goes out of date with time (a value it holds is only trusted for a while): the
   * time, in `now()`'s milliseconds, from which the value is read again even though nothing was committed.
   */
  expiresAt?: (value: V) => number;
  now?: () => number;
}

/**
 * `read(key)`, kept per key until the database's commit token moves (commit-token.ts): an answer is never
 * older than the last commit (nor, with `expiresAt`, than its own expiry). The token is read before the
 * value, so a commit during a read makes the next call read again. Callers that miss together share one
 * read; a failed read is not kept.
 */
export function keptUntilCommit<K extends string, V>(token: CommitToken, read: (key: K) => Promise<V>, options: KeptOptions<V> = {}): (key: K) => Promise<V> {
  const { maxKeys = 16, expiresAt, now = Date.now } = options;
  const kept = new LruMap<K, Kept<V>>(maxKeys);
  return async (key) => {
    const current = await token();
    if (current === undefined) return read(key);
    const entry = kept.get(key);
    if (entry && entry.token === current && !(entry.expiresAt !== undefined && entry.expiresAt <= now())) return entry.value;
    const value = read(key);
    const fresh: Kept<V> = { token: current, value };
    kept.set(key, fresh);
    value.then(
      (answer) => {
        if (expiresAt) fresh.expiresAt = expiresAt(answer);
      },
      () => {
        if (kept.peek(key) === fresh) kept.delete(key);
      },
    );
    return value;
  };
}
