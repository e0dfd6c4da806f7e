/** How long a read is trusted without any signal: bounds a change made behind the app's back (a script, another instance without Redis). */
export const VERSIONED_READ_TTL_MS = 5_000;

interface Entry<T> {
  version: number;
  expiresAt: number;
  value: Promise<T>;
}

/**
 * A read shared by concurrent callers and reused while `version()` stays the same and it is younger than
 * `ttlMs`. Once it is stale by time alone (nothing changed here), the last value is served at once while one
 * new read runs behind it; when a read fails (the database is down), the last value stays in use. After a
 * change (the version moved) callers wait for the new read. With no value read yet, an error stands.
 */
export function versionedRead<T>(read: () => Promise<T>, deps: { version: () => number; now?: () => number; ttlMs?: number }): () => Promise<T> {
  const now = deps.now ?? Date.now;
  const ttlMs = deps.ttlMs ?? VERSIONED_READ_TTL_MS;
  let entry: Entry<T> | undefined;
  let lastGood: { value: T; version: number } | undefined;
  let refreshing = false;

  function load(version: number, at: number): Promise<T> {
    refreshing = true;
    const fresh: Entry<T> = { version, expiresAt: at + ttlMs, value: undefined as unknown as Promise<T> };
    fresh.value = read()
      .then(
        (result) => {
          lastGood = { value: result, version };
          return result;
        },
        (err: unknown) => {
          if (entry === fresh) entry = undefined;
          if (lastGood) return lastGood.value;
          throw err;
        },
      )
      .finally(() => {
        refreshing = false;
      });
    entry = fresh;
    return fresh.value;
  }

  return () => {
    const version = deps.version();
    const at = now();
    if (entry && entry.version === version && at < entry.expiresAt) return entry.value;
    if (lastGood && lastGood.version === version) {
      if (!refreshing) void load(version, at).catch(() => undefined);
      return Promise.resolve(lastGood.value);
    }
    return load(version, at);
  };
}
