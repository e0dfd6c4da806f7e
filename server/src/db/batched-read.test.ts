import { describe, expect, it, vi } from 'vitest';
import { batchPerTurn, MAX_KEYS_AT_ONCE } from './batched-read.js';

describe('batchPerTurn', () => {
  const counting = () => {
    const batches: string[][] = [];
    const load = batchPerTurn<string, string>(async (keys) => {
      batches.push([...keys]);
      return keys.map((key) => (key.startsWith('bad') ? new Error(`no ${key}`) : key.toUpperCase()));
    });
    return { batches, load };
  };

  it('makes the lookups of one turn of the event loop one batch, duplicates included, and answers each its own', async () => {
    const { batches, load } = counting();
    await expect(Promise.all([load('a'), load('b'), load('a')])).resolves.toEqual(['A', 'B', 'A']);
    expect(batches).toEqual([['a', 'b', 'a']]);
  });

  it('starts a new batch in the next turn: nothing is kept from an earlier one', async () => {
    const { batches, load } = counting();
    await load('a');
    await new Promise((resolve) => setImmediate(resolve));
    await load('a');
    expect(batches).toEqual([['a'], ['a']]);
  });

  it('splits a burst into batches of at most MAX_KEYS_AT_ONCE', async () => {
    const { batches, load } = counting();
    await Promise.all(Array.from({ length: MAX_KEYS_AT_ONCE + 1 }, (_, i) => load(`k${i}`)));
    expect(batches.map((batch) => batch.length)).toEqual([MAX_KEYS_AT_ONCE, 1]);
  });

  it('with maxInFlight, holds the lookups asked for while a batch is read and sends them together when it ends', async () => {
    const batches: string[][] = [];
    const ends: Array<() => void> = [];
    const load = batchPerTurn<string, string>(
      async (keys) => {
        batches.push([...keys]);
        await new Promise<void>((resolve) => ends.push(resolve));
        return keys.map((key) => key.toUpperCase());
      },
      { maxInFlight: 1 },
    );
    const first = load('a');
    await new Promise((resolve) => setImmediate(resolve));
    const later = [load('b'), load('c')];
    await new Promise((resolve) => setImmediate(resolve));
    const last = load('d');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a']]);
    ends.shift()!();
    await expect(first).resolves.toBe('A');
    await vi.waitFor(() => expect(batches).toEqual([['a'], ['b', 'c', 'd']]));
    ends.shift()!();
    await expect(Promise.all([...later, last])).resolves.toEqual(['B', 'C', 'D']);
  });

  it('fails only the keys answered with an error', async () => {
    const { load } = counting();
    const [good, bad] = await Promise.allSettled([load('fine'), load('bad-one')]);
    expect(good).toEqual({ status: 'fulfilled', value: 'FINE' });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'no bad-one' } });
  });
});
