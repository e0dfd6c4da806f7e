import { describe, expect, it } from 'vitest';
import { keptUntilCommit } from './kept-until-commit.js';

describe('keptUntilCommit', () => {
  const setup = () => {
    const state = { token: 't1' as string | undefined, reads: 0, fail: false };
    const read = keptUntilCommit(
      async () => state.token,
      async (key: string) => {
        state.reads += 1;
        if (state.fail) throw new Error('database down');
        return `${key}:${state.reads}`;
      },
      { maxKeys: 2 },
    );
    return { state, read };
  };

  it('keeps each key’s read while the token stays, and reads again once it moves', async () => {
    const { state, read } = setup();
    expect(await read('a')).toBe('a:1');
    expect(await read('a')).toBe('a:1');
    expect(await read('b')).toBe('b:2');
    state.token = 't2';
    expect(await read('a')).toBe('a:3');
    expect(await read('b')).toBe('b:4');
  });

  it('shares one read among callers that miss together', async () => {
    const { state, read } = setup();
    expect(await Promise.all([read('a'), read('a'), read('a')])).toEqual(['a:1', 'a:1', 'a:1']);
    expect(state.reads).toBe(1);
  });

  it('keeps no failed read: the next call reads again', async () => {
    const { state, read } = setup();
    state.fail = true;
    await expect(read('a')).rejects.toThrow('database down');
    state.fail = false;
    expect(await read('a')).toBe('a:2');
  });

  it('keeps nothing without a token, and at most `maxKeys` keys', async () => {
    const { state, read } = setup();
    await read('a');
    await read('b');
    await read('c'); // 'a' leaves
    expect(await read('a')).toBe('a:4');
    state.token = undefined;
    await read('a');
    await read('a');
    expect(state.reads).toBe(6);
  });

  it('reads again once a kept value has expired, though nothing was committed', async () => {
    let now = 1000;
    let reads = 0;
    const read = keptUntilCommit(
      async () => 't1',
      async (key: string) => ({ key, read: ++reads, until: now + 60 }),
      {
        expiresAt: (value) => value.until,
        now: () => now,
      },
    );
    expect((await read('a')).read).toBe(1);
    now = 1059;
    expect((await read('a')).read).toBe(1);
    now = 1060;
    expect((await read('a')).read).toBe(2);
    expect((await read('a')).read).toBe(2);
    // An answer already out of date when read (until ≤ now) is never kept.
    const never = keptUntilCommit(
      async () => 't1',
      async () => ({ read: ++reads }),
      { expiresAt: () => 0, now: () => now },
    );
    await never('b');
    await never('b');
    expect(reads).toBe(4);
  });
});
