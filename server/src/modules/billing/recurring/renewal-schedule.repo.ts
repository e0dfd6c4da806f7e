import type { Db } from '../../../db/knex.js';
import { SUBSCRIPTION_COLUMNS, toSubscriptionRecord, type SubscriptionRecord } from '../billing.repo.js';
import { DAY_MS } from '../../../../../shared/constants.js';

/** Plans shorter than this get no reminder: it would arrive right after the purchase. */
const SHORTEST_REMINDED_MS = 7 * DAY_MS;

const longEnough = (record: SubscriptionRecord) =>
  record.currentPeriodStart !== null &&
  record.currentPeriodEnd !== null &&
  record.currentPeriodEnd.getTime() - record.currentPeriodStart.getTime() >= SHORTEST_REMINDED_MS;

/** What the renewal reminders look at: periods about to end (the reconcile job has reconcile-schedule.repo.ts). */
export function createRenewalScheduleRepo(db: Db) {
  const subscriptions = () => db('subscriptions as s').leftJoin('payment_providers as pp', 'pp.id', 's.provider_id').select(SUBSCRIPTION_COLUMNS);

  return {
    /** Recurring subscriptions that will be charged between `from` and `to`. */
    async listRenewalsDue(from: Date, to: Date): Promise<SubscriptionRecord[]> {
      const rows = await subscriptions()
        .where({ 's.billing': 'recurring', 's.status': 'active', 's.cancel_at_period_end': false })
        .where('s.current_period_end', '>', from)
        .where('s.current_period_end', '<=', to);
      return rows.map(toSubscriptionRecord).filter(longEnough);
    },

    /** One-off paid periods that end between `from` and `to` (the caller checks each is its account's last). */
    async listOneOffEnding(from: Date, to: Date): Promise<SubscriptionRecord[]> {
      const rows = await subscriptions()
        .where({ 's.billing': 'one_off', 's.status': 'active' })
        .whereNotNull('s.vpn_account_id')
        .where('s.current_period_end', '>', from)
        .where('s.current_period_end', '<=', to);
      return rows.map(toSubscriptionRecord).filter(longEnough);
    },
  };
}

export type RenewalScheduleRepo = ReturnType<typeof createRenewalScheduleRepo>;
