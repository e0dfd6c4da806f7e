import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map.js';

describe('LruMap', () => {
  it('evicts the least recently used on set and says what it evicted; get refreshes a key, peek does not', () => {
    const lru = new LruMap<string, number>(3);
    expect(lru.set('a', 1)).toEqual([]);
    lru.set('b', 2);
    lru.set('c', 3);
    lru.get('a');
    lru.peek('b');
    expect(lru.set('d', 4)).toEqual([['b', 2]]);
    expect([...lru.keys()]).toEqual(['c', 'a', 'd']);
    expect([...lru.entries()]).toEqual([
      ['c', 3],
      ['a', 1],
      ['d', 4],
    ]);
    expect(lru.set('a', 10)).toEqual([]);
    expect(lru.size).toBe(3);
    expect(lru.get('a')).toBe(10);
  });

  it('deletes returning the value, evicts while a condition holds, and clears', () => {
    const lru = new LruMap<string, number>(10);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) lru.set(key, i);
    expect(lru.delete('b')).toBe(1);
    expect(lru.delete('b')).toBeUndefined();
    expect(lru.evictWhile(() => lru.size > 1)).toEqual([
      ['a', 0],
      ['c', 2],
    ]);
    expect([...lru.keys()]).toEqual(['d']);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.evictWhile(() => true)).toEqual([]);
  });

  it('stays at its bound through a long stream of new keys, keeping the newest', () => {
    const lru = new LruMap<number, number>(1000);
    let evicted = 0;
    for (let i = 0; i < 50_000; i += 1) evicted += lru.set(i, i).length;
    expect(lru.size).toBe(1000);
    expect(evicted).toBe(49_000);
    expect(lru.peek(48_999)).toBeUndefined();
    expect(lru.peek(49_000)).toBe(49_000);
  });

  it('refuses a bound below one', () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
  });
});
