/**
 * The in-memory cache behind `/sub/:token`: on top of a bounded LRU map, a stale-while-revalidate cache
 * with one load at a time per key, a short back-off after a failed load, and the last good copy kept for
 * when the source is down.
 */
import { LruMap } from '../../lib/lru-map.js';

export interface SwrCacheOptions {
  /** A copy younger than this is served as is. */
  freshMs: number;
  /**
   * After `freshMs`, for this long a request gets the cached copy at once and a refresh starts in the
   * background. Older copies are refreshed before answering (and still served if that fails).
   */
  staleWhileRevalidateMs: number;
  maxEntries: number;
  /** Total `sizeOf` of the stored values; a single larger value is not stored. */
  maxBytes: number;
  /** After a failed load, for this long the key is not loaded again: requests get the last copy, or the error. */
  failureBackoffMs: number;
  /** Milliseconds (an injectable clock). */
  now(): number;
}

export const DEFAULT_SWR_OPTIONS: Omit<SwrCacheOptions, 'now'> = {
  freshMs: 60_000,
  staleWhileRevalidateMs: 15 * 60_000,
  maxEntries: 5000,
  maxBytes: 64 * 1024 * 1024,
  failureBackoffMs: 10_000,
};

/**
 * fresh: served from the cache; stale: served from the cache while a background refresh runs;
 * loaded: just loaded; fallback: the load failed (or failed moments ago) and this is the last good copy.
 */
export type CacheState = 'fresh' | 'stale' | 'loaded' | 'fallback';

export interface CacheResult<V> {
  value: V;
  state: CacheState;
  /** When the value was loaded (ms, the cache's clock). */
  storedAt: number;
}

interface Entry<V> {
  value: V;
  storedAt: number;
  size: number;
}

export class SwrCache<V> {
  private readonly entries: LruMap<string, Entry<V>>;
  private readonly failures: LruMap<string, { at: number; error: unknown }>;
  private readonly inflight = new Map<string, Promise<V>>();
  private totalBytes = 0;

  constructor(
    private readonly options: SwrCacheOptions,
    private readonly sizeOf: (value: V) => number,
    /** Called when a background refresh fails (the last copy stays). */
    private readonly onBackgroundError: (key: string, error: unknown) => void = () => {},
  ) {
    this.entries = new LruMap(options.maxEntries);
    this.failures = new LruMap(options.maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Loads in flight right now (at most one per key). */
  get loading(): number {
    return this.inflight.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<CacheResult<V>> {
    const now = this.options.now();
    const entry = this.entries.get(key);
    if (entry) {
      const age = now - entry.storedAt;
      if (age < this.options.freshMs) return { value: entry.value, state: 'fresh', storedAt: entry.storedAt };
      if (age < this.options.freshMs + this.options.staleWhileRevalidateMs) {
        this.refreshInBackground(key, load, now);
        return { value: entry.value, state: 'stale', storedAt: entry.storedAt };
      }
    }
    const failure = this.failures.get(key);
    if (failure && now - failure.at < this.options.failureBackoffMs && !this.inflight.has(key)) {
      if (entry) return { value: entry.value, state: 'fallback', storedAt: entry.storedAt };
      throw failure.error;
    }
    try {
      const value = await this.load(key, load);
      return { value, state: 'loaded', storedAt: this.entries.get(key)?.storedAt ?? this.options.now() };
    } catch (err) {
      if (entry) return { value: entry.value, state: 'fallback', storedAt: entry.storedAt };
      throw err;
    }
  }

  /** Replaces the key's copy with a newer one loaded elsewhere (a background refresh of the layer behind). */
  set(key: string, value: V): void {
    this.store(key, value);
    this.failures.delete(key);
  }

  /** Whether the key has a copy (fresh, stale or too old), without touching it. */
  has(key: string): boolean {
    return this.entries.peek(key) !== undefined;
  }

  /** The cached value without loading, refreshing or touching anything. */
  peek(key: string): V | undefined {
    return this.entries.peek(key)?.value;
  }

  /** Forgets one key (its copy and any recent failure). */
  delete(key: string): void {
    const entry = this.entries.delete(key);
    if (entry) this.totalBytes -= entry.size;
    this.failures.delete(key);
  }

  /** Forgets every key that matches. */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (matches(key)) this.delete(key);
    for (const key of [...this.failures.keys()]) if (matches(key)) this.failures.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.failures.clear();
    this.totalBytes = 0;
  }

  /** Resolves when no load is in flight (tests; a graceful shutdown). */
  async whenIdle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight.values()]);
  }

  private refreshInBackground(key: string, load: () => Promise<V>, now: number): void {
    if (this.inflight.has(key)) return;
    const failure = this.failures.get(key);
    if (failure && now - failure.at < this.options.failureBackoffMs) return;
    this.load(key, load).catch((err: unknown) => this.onBackgroundError(key, err));
  }

  /** One load per key at a time: concurrent callers share it. */
  private load(key: string, load: () => Promise<V>): Promise<V> {
    const running = this.inflight.get(key);
    if (running) return running;
    const promise: Promise<V> = Promise.resolve()
      .then(load)
      .then(
        (value) => {
          this.store(key, value);
          this.failures.delete(key);
          return value;
        },
        (err: unknown) => {
          this.failures.set(key, { at: this.options.now(), error: err });
          throw err;
        },
      )
      .finally(() => {
        if (this.inflight.get(key) === promise) this.inflight.delete(key);
      });
    this.inflight.set(key, promise);
    return promise;
  }

  private store(key: string, value: V): void {
    const size = this.sizeOf(value);
    // Looked at rather than deleted: a new key (most) then costs one lookup, and a replaced one is set in place.
    const previous = this.entries.peek(key);
    if (previous) this.totalBytes -= previous.size;
    if (size > this.options.maxBytes) {
      if (previous) this.entries.delete(key);
      return;
    }
    for (const [, evicted] of this.entries.set(key, { value, storedAt: this.options.now(), size })) this.totalBytes -= evicted.size;
    this.totalBytes += size;
    if (this.totalBytes > this.options.maxBytes) {
      for (const [, evicted] of this.entries.evictWhile(() => this.totalBytes > this.options.maxBytes)) this.totalBytes -= evicted.size;
    }
  }
}
