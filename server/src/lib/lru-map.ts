import { LRUCache } from 'lru-cache';

/**
 * A Map that forgets its least recently used keys beyond `maxEntries`, over `lru-cache` (its list of indexes
 * makes every operation constant time). A plain Map evicting its oldest key through `keys().next()` is not:
 * V8 leaves deleted entries in place until the table is rebuilt, and the iterator walks them, so at 10,000
 * entries each eviction took 6.6 µs (a flood of unknown `/sub` tokens spent a sixth of its CPU there).
 */
/** What a `set` that evicted nothing returns (most of them): no array made per call. */
const NOTHING: ReadonlyArray<never> = Object.freeze([]);

export class LruMap<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly cache: LRUCache<K, V>;
  /** What the cache evicted during the current `set`. */
  private evicted: ReadonlyArray<[K, V]> = NOTHING;

  constructor(maxEntries: number) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1');
    this.cache = new LRUCache<K, V>({
      max: maxEntries,
      dispose: (value, key, reason) => {
        if (reason === 'evict') this.evicted = [...this.evicted, [key, value]];
      },
    });
  }

  get size(): number {
    return this.cache.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    return this.cache.get(key);
  }

  /** The value, without making it the most recently used. */
  peek(key: K): V | undefined {
    return this.cache.peek(key);
  }

  /** Sets the value; returns what was evicted to make room (never the key just set). */
  set(key: K, value: V): ReadonlyArray<[K, V]> {
    this.evicted = NOTHING;
    this.cache.set(key, value);
    const evicted = this.evicted;
    this.evicted = NOTHING;
    return evicted;
  }

  delete(key: K): V | undefined {
    const value = this.cache.peek(key);
    if (value !== undefined) this.cache.delete(key);
    return value;
  }

  /** Evicts least recently used entries while `condition()` holds. */
  evictWhile(condition: () => boolean): Array<[K, V]> {
    const evicted: Array<[K, V]> = [];
    while (this.cache.size > 0 && condition()) {
      const oldest = this.cache.rkeys().next().value as K;
      evicted.push([oldest, this.cache.peek(oldest)!]);
      this.cache.delete(oldest);
    }
    return evicted;
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.cache.rkeys();
  }

  /** The entries, least recently used first. */
  entries(): IterableIterator<[K, V]> {
    return this.cache.rentries() as IterableIterator<[K, V]>;
  }

  clear(): void {
    this.cache.clear();
  }
}
