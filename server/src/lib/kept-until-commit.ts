import type { CommitToken } from '../db/commit-token.js';
import { LruMap } from './lru-map.js';

interface Kept<V> {
  token: string;
  value: Promise<V>;
}

/**
 * `read(key)`, kept per key (up to `maxKeys`, least recently used out first) until the database's commit
 * token moves (commit-token.ts): an answer is never older than the last commit. The token is read before
 * the value, so a commit during a read makes the next call read again. Callers that miss together share
 * one read; a failed read is not kept.
 */
export function keptUntilCommit<K extends string, V>(token: CommitToken, read: (key: K) => Promise<V>, maxKeys = 16): (key: K) => Promise<V> {
  const kept = new LruMap<K, Kept<V>>(maxKeys);
  return async (key) => {
    const now = await token();
    if (now === undefined) return read(key);
    const entry = kept.get(key);
    if (entry && entry.token === now) return entry.value;
    const value = read(key);
    const fresh = { token: now, value };
    kept.set(key, fresh);
    value.catch(() => {
      if (kept.peek(key) === fresh) kept.delete(key);
    });
    return value;
  };
}
