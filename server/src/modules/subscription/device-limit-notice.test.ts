import { describe, expect, it, vi } from 'vitest';
import { createTestClock } from '../../../test/test-clock.js';
import { createDeviceLimitNotice } from './device-limit-notice.js';

describe('the device limit notice', () => {
  const setUp = (notify: (notice: unknown, key: string) => Promise<void>) => {
    const clock = createTestClock(new Date('2026-03-01T23:00:00Z'));
    const log = { warn: vi.fn(), error: vi.fn() };
    const notices = { notify: vi.fn(notify) };
    return { clock, log, notices, tell: createDeviceLimitNotice({ notices, clock: clock.now, log }) };
  };

  it("queues one notice per account and UTC day of the app's clock", async () => {
    const { clock, notices, tell } = setUp(async () => {});
    await tell('acc-1', 2);
    await tell('acc-1', 2);
    await tell('acc-2', 3);
    clock.advance(3600); // 00:00 UTC: the next day
    await tell('acc-1', 2);
    expect(notices.notify.mock.calls).toEqual([
      [{ kind: 'device_limit', accountId: 'acc-1', limit: 2 }, 'acc-1:2026-03-01'],
      [{ kind: 'device_limit', accountId: 'acc-2', limit: 3 }, 'acc-2:2026-03-01'],
      [{ kind: 'device_limit', accountId: 'acc-1', limit: 2 }, 'acc-1:2026-03-02'],
    ]);
  });

  it('logs a notice it could not queue, never throws, and tries again on the next refusal', async () => {
    const { log, notices, tell } = setUp(async () => {
      throw new Error('database is down');
    });
    await expect(tell('acc-1', 2)).resolves.toBeUndefined();
    expect(log.warn).toHaveBeenCalledWith({ accountId: 'acc-1', err: 'database is down' }, 'devices: could not queue the device limit notice');
    await tell('acc-1', 2);
    expect(notices.notify).toHaveBeenCalledTimes(2);
  });
});
