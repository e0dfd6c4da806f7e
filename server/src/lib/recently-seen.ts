/**
 * Which keys were seen lately, without keeping them: the "doorkeeper" of TinyLFU (Einziger, Friedman and
 * Manes, 2017), a Bloom filter in two generations. Time is cut in slots of `generationMs`; a key sets two bits
 * of the current slot's generation, and was seen when both its bits are set in the current slot's or the
 * previous slot's. So a key seen again within `generationMs` is always found, after twice that never; in
 * between, sometimes.
 *
 * Nothing is allocated or kept per key: a map of the keys themselves would keep a string for each and give
 * the collector every one of them to copy and mark (`/sub` asks this once per cold request: subscription.service.ts).
 * A false positive only lets a key through early: with 100,000 keys in a generation of 2^20 bits, about 3 %.
 */
export class RecentlySeen {
  private current: Uint32Array;
  private previous: Uint32Array;
  /** The slot (`now / generationMs`, rounded down) of the current generation. */
  private currentSlot: number | undefined;
  private readonly mask: number;

  /** `bits` per generation, a power of two. */
  constructor(
    private readonly generationMs: number,
    bits = 1 << 20,
  ) {
    if (!(bits >= 32 && Number.isInteger(Math.log2(bits)))) throw new RangeError('bits must be a power of two, at least 32');
    this.current = new Uint32Array(bits / 32);
    this.previous = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  /** Records `key` as seen at `now` (ms); returns whether it had been seen before (see above for how long ago). */
  seenBefore(key: string, now: number): boolean {
    this.rotate(now);
    const h1 = fnv1a(key);
    const h2 = fmix32(h1) | 1;
    const a = h1 & this.mask;
    const b = (h1 + h2) & this.mask;
    const seen = (has(this.current, a) && has(this.current, b)) || (has(this.previous, a) && has(this.previous, b));
    set(this.current, a);
    set(this.current, b);
    return seen;
  }

  private rotate(now: number): void {
    const slot = Math.floor(now / this.generationMs);
    if (this.currentSlot === undefined) this.currentSlot = slot;
    if (slot <= this.currentSlot) return;
    // Two slots or more without a key: both generations are out of date.
    if (slot > this.currentSlot + 1) this.current.fill(0);
    const dropped = this.previous;
    this.previous = this.current;
    this.current = dropped.fill(0);
    this.currentSlot = slot;
  }
}

const has = (words: Uint32Array, bit: number) => (words[bit >>> 5]! & (1 << (bit & 31))) !== 0;
const set = (words: Uint32Array, bit: number) => {
  words[bit >>> 5] = words[bit >>> 5]! | (1 << (bit & 31));
};

/** FNV-1a, 32 bits, over the string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's finaliser: a second, independent-enough hash from the first (double hashing). */
function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
