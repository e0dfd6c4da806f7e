import { describe, expect, it, vi } from 'vitest';
import type { ClientDevice } from '../devices/device-headers.js';
import type { Admission } from '../devices/devices.repo.js';
import { createDeviceAdmission } from './device-admission.js';

const device = (hwid: string): ClientDevice => ({ hwid, os: 'iOS', osVersion: '17.5', model: 'iPhone', app: 'Happ/3.2.1' });
const limited = { id: 'acct-1', deviceLimit: 2 };

/** The admission over an in-memory table of devices that counts every call the hot path must avoid. */
function harness(rows: Array<[hwid: string, lastSeen: number]> = []) {
  let now = 1_000_000;
  const table = new Map<string, number>(rows);
  const calls = { seenOf: 0, admit: 0, touch: [] as Array<{ hwid: string; at: number }> };
  let down = false;
  const repo = {
    seenOf: vi.fn(async () => {
      calls.seenOf += 1;
      if (down) throw new Error('database down');
      return new Map(table);
    }),
    admit: vi.fn(async (_id: string, d: ClientDevice, limit: number | null, at: Date): Promise<Admission> => {
      calls.admit += 1;
      if (down) throw new Error('database down');
      if (table.has(d.hwid)) return { outcome: 'known' };
      if (limit !== null && table.size >= limit) return { outcome: 'refused', count: table.size };
      table.set(d.hwid, at.getTime());
      return { outcome: 'admitted' };
    }),
    touch: vi.fn(async (_id: string, d: ClientDevice, at: Date) => {
      calls.touch.push({ hwid: d.hwid, at: at.getTime() });
    }),
  };
  const log = { warn: vi.fn() };
  const admission = createDeviceAdmission({ repo, now: () => now, ttlMs: 5000, touchIntervalMs: 300_000, log });
  return {
    admission,
    table,
    calls,
    log,
    advance: (ms: number) => (now += ms),
    setDown: (value: boolean) => (down = value),
  };
}

describe('device admission on /sub', () => {
  it('serves a known device from memory: one read per account every few seconds, no write', async () => {
    const h = harness([['phone', 1_000_000]]);
    for (let i = 0; i < 50; i += 1) expect(await h.admission.check(limited, device('phone'), 'allow')).toEqual({ allowed: true });
    expect(h.calls).toEqual({ seenOf: 1, admit: 0, touch: [] });
    h.advance(4999);
    await h.admission.check(limited, device('phone'), 'allow');
    expect(h.calls.seenOf).toBe(1);
    h.advance(1);
    await h.admission.check(limited, device('phone'), 'allow');
    expect(h.calls.seenOf).toBe(2);
  });

  it('answers "admitted" synchronously only for a device it read within the TTL', async () => {
    const h = harness([['phone', 1_000_000]]);
    expect(h.admission.admittedNow(limited.id, device('phone'))).toBe(false); // nothing read yet
    await h.admission.check(limited, device('phone'), 'allow');
    expect(h.admission.admittedNow(limited.id, device('phone'))).toBe(true);
    expect(h.admission.admittedNow(limited.id, device('tablet'))).toBe(false);
    h.advance(5000);
    expect(h.admission.admittedNow(limited.id, device('phone'))).toBe(false);
    expect(h.calls).toEqual({ seenOf: 1, admit: 0, touch: [] });
  });

  it('shares one read among concurrent requests of an account', async () => {
    const h = harness([['phone', 1_000_000]]);
    await Promise.all(Array.from({ length: 20 }, () => h.admission.check(limited, device('phone'), 'allow')));
    expect(h.calls.seenOf).toBe(1);
  });

  it('admits new devices up to the limit, refuses the next with the count, and remembers the admitted', async () => {
    const h = harness();
    expect(await h.admission.check(limited, device('a'), 'allow')).toEqual({ allowed: true });
    expect(await h.admission.check(limited, device('b'), 'allow')).toEqual({ allowed: true });
    expect(await h.admission.check(limited, device('c'), 'allow')).toEqual({ allowed: false, reason: 'limit_reached', count: 2, limit: 2 });
    expect(h.calls.admit).toBe(3);
    await h.admission.check(limited, device('a'), 'allow');
    await h.admission.check(limited, device('b'), 'allow');
    expect(h.calls.admit).toBe(3);
  });

  it('writes last-seen at most every touch interval, in the background', async () => {
    const h = harness([['phone', 1_000_000]]);
    await h.admission.check(limited, device('phone'), 'allow');
    h.advance(299_999);
    await h.admission.check(limited, device('phone'), 'allow');
    expect(h.calls.touch).toEqual([]);
    h.advance(1);
    await h.admission.check(limited, device('phone'), 'allow');
    await h.admission.check(limited, device('phone'), 'allow');
    expect(h.calls.touch).toEqual([{ hwid: 'phone', at: 1_300_000 }]);
  });

  it('forgets an account at once: a removed device is not admitted from memory', async () => {
    const h = harness([
      ['a', 1_000_000],
      ['b', 1_000_000],
    ]);
    expect((await h.admission.check(limited, device('a'), 'allow')).allowed).toBe(true);
    h.table.delete('a');
    h.table.set('c', 1_000_000);
    h.admission.forget(limited.id);
    expect(await h.admission.check(limited, device('a'), 'allow')).toEqual({ allowed: false, reason: 'limit_reached', count: 2, limit: 2 });
  });

  it('does not keep a read that a forget overtook', async () => {
    const h = harness([['a', 1_000_000]]);
    const pending = h.admission.check(limited, device('a'), 'allow');
    h.admission.forget(limited.id);
    await pending;
    expect(h.admission.stats().accounts).toBe(0);
  });

  it('without a device id: served unless the account has a limit and the operator refuses them; nothing is read', async () => {
    const h = harness();
    expect(await h.admission.check(limited, null, 'allow')).toEqual({ allowed: true });
    expect(await h.admission.check({ id: 'acct-2', deviceLimit: null }, null, 'refuse')).toEqual({ allowed: true });
    expect(await h.admission.check(limited, null, 'refuse')).toEqual({ allowed: false, reason: 'no_device_id', limit: 2 });
    expect(h.calls).toEqual({ seenOf: 0, admit: 0, touch: [] });
  });

  it('with the database down: admitted devices still are, a new one on a limited account gets 503, an unlimited account is served', async () => {
    const h = harness([['phone', 1_000_000]]);
    await h.admission.check(limited, device('phone'), 'allow');
    h.setDown(true);
    h.advance(10_000);
    expect(await h.admission.check(limited, device('phone'), 'allow')).toEqual({ allowed: true });
    await expect(h.admission.check(limited, device('new'), 'allow')).rejects.toMatchObject({ statusCode: 503, code: 'service_unavailable' });
    expect(await h.admission.check({ id: 'acct-3', deviceLimit: null }, device('new'), 'allow')).toEqual({ allowed: true });
    expect(h.log.warn).toHaveBeenCalled();
  });
});
