/** A Map that forgets its least recently used keys beyond `maxEntries`. */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1');
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** The value, without making it the most recently used. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Sets the value; returns what was evicted to make room (never the key just set). */
  set(key: K, value: V): Array<[K, V]> {
    this.map.delete(key);
    this.map.set(key, value);
    return this.evictWhile(() => this.map.size > this.maxEntries);
  }

  delete(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) this.map.delete(key);
    return value;
  }

  /** Evicts least recently used entries while `condition()` holds. */
  evictWhile(condition: () => boolean): Array<[K, V]> {
    const evicted: Array<[K, V]> = [];
    while (this.map.size > 0 && condition()) {
      const oldest = this.map.keys().next().value as K;
      evicted.push([oldest, this.map.get(oldest)!]);
      this.map.delete(oldest);
    }
    return evicted;
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  clear(): void {
    this.map.clear();
  }
}
