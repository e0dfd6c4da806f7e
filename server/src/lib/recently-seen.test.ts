import { describe, expect, it } from 'vitest';
import { RecentlySeen } from './recently-seen.js';

describe('RecentlySeen', () => {
  it('finds a key seen again within a generation, and not one never seen', () => {
    const seen = new RecentlySeen(30_000);
    expect(seen.seenBefore('a-token', 0)).toBe(false);
    expect(seen.seenBefore('a-token', 10_000)).toBe(true);
    expect(seen.seenBefore('another-token', 10_000)).toBe(false);
  });

  it('always finds a key seen within a generation, across the turn to the next one', () => {
    const seen = new RecentlySeen(30_000);
    seen.seenBefore('first', 0);
    seen.seenBefore('a-token', 29_000);
    // At 50 s the generation of 0–30 s is the previous one: a-token (29 s) is found 21 s later.
    expect(seen.seenBefore('a-token', 50_000)).toBe(true);
    // …and at 79 s the generation begun at 50 s holds it (it was set again then).
    expect(seen.seenBefore('a-token', 79_000)).toBe(true);
  });

  it('never finds a key seen two generations ago or more', () => {
    const seen = new RecentlySeen(30_000);
    seen.seenBefore('a-token', 0);
    expect(seen.seenBefore('a-token', 61_000)).toBe(false);
    seen.seenBefore('b-token', 100_000);
    seen.seenBefore('other', 131_000); // a turn: b-token's generation is now the previous one
    expect(seen.seenBefore('b-token', 161_000)).toBe(false);
    // However far apart the other keys come: seen at 200 s, a turn at 239 s, asked at 261 s.
    seen.seenBefore('c-token', 200_000);
    seen.seenBefore('other', 239_000);
    expect(seen.seenBefore('c-token', 261_000)).toBe(false);
  });

  it('lets few keys never seen through: under 5 % of 20,000 new keys after 100,000 others', () => {
    const seen = new RecentlySeen(60_000);
    for (let i = 0; i < 100_000; i++) seen.seenBefore(`token-${i}-${(i * 2654435761) % 1e9}`, 1000);
    let through = 0;
    for (let i = 0; i < 20_000; i++) if (seen.seenBefore(`new-${i}`, 2000)) through++;
    expect(through / 20_000).toBeLessThan(0.05);
  });

  it('refuses a size that is not a power of two', () => {
    expect(() => new RecentlySeen(1000, 1000)).toThrow(RangeError);
    expect(() => new RecentlySeen(1000, 16)).toThrow(RangeError);
  });
});
