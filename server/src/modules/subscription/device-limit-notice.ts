/**
 * A new device refused over the account's limit: its customer is told (e-mail, and Telegram through the same notice),
 * at most once per account and UTC day of the app's clock. The notice's dedupe key is the exactly-once gate across
 * instances; each instance also remembers the accounts it queued today, so a refused app asking again and again costs
 * no further insert. Telling never fails or holds up the refusal beyond the one insert: an error is logged.
 */
import type { Clock } from '../../lib/clock.js';
import { LruMap } from '../../lib/lru-map.js';
import type { BillingNotices } from '../billing/index.js';
import type { SubscriptionLog } from './subscription-deps.js';

/** The UTC day of `now`, `YYYY-MM-DD`. */
const utcDay = (now: Date) => now.toISOString().slice(0, 10);

export function createDeviceLimitNotice(deps: { notices?: Pick<BillingNotices, 'notify'>; clock: Clock; log: SubscriptionLog }) {
  const { notices, clock, log } = deps;
  /** Account id → the day this instance queued its notice. */
  const queued = new LruMap<string, string>(10_000);
  return async (accountId: string, limit: number): Promise<void> => {
    if (!notices) return;
    const day = utcDay(clock());
    if (queued.get(accountId) === day) return;
    try {
      await notices.notify({ kind: 'device_limit', accountId, limit }, `${accountId}:${day}`);
      queued.set(accountId, day);
    } catch (err) {
      log.warn({ accountId, err: err instanceof Error ? err.message : String(err) }, 'devices: could not queue the device limit notice');
    }
  };
}

export type DeviceLimitNotice = ReturnType<typeof createDeviceLimitNotice>;
