import { z } from 'zod';
import { accountSerialKey } from '../../../jobs/jobs.repo.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import { addSeconds } from '../../../lib/clock.js';
import { DAY_MS } from '../../../../../shared/constants.js';
import { chargeStoreRenewal } from './charge-store-renewal.js';
import { renewalKeyOf, STORE_RENEWAL } from './store-renewal-schedule.js';
import type { StoreRenewalsDeps } from './store-renewals-deps.js';

export type { StoreRenewalsDeps } from './store-renewals-deps.js';

export const SCAN_STORE_RENEWALS = 'scan_store_renewals';
export const CHARGE_STORE_RENEWAL = 'charge_store_renewal';

const Payload = z.object({ subscriptionId: z.string().min(1), periodEnd: z.iso.datetime() });

/** Every subscription whose first try is due soon gets its period's job (once: the job is keyed by the period). */
async function scanStoreRenewals(deps: StoreRenewalsDeps): Promise<number> {
  const now = deps.clock();
  const due = await deps.billing.listStoreRenewalsDue(new Date(now.getTime() + STORE_RENEWAL.firstTryDaysBefore * DAY_MS), 500);
  for (const subscription of due) {
    await deps.jobs.enqueue(
      {
        type: CHARGE_STORE_RENEWAL,
        payload: { subscriptionId: subscription.id, periodEnd: subscription.currentPeriodEnd.toISOString() },
        dedupeKey: `${CHARGE_STORE_RENEWAL}:${renewalKeyOf(subscription.id, subscription.currentPeriodEnd)}`,
        serialKey: accountSerialKey(subscription.vpnAccountId),
        maxAttempts: 500,
      },
      now,
    );
  }
  return due.length;
}

/**
 * Recurring plans this server renews (a provider without subscriptions of its own: YooKassa). Before a period
 * ends, the saved payment method is charged for the next one, exactly once per period however often or wherever
 * the job runs: the period's renewal transaction is unique (`renewal:<subscription>:<period end>`), each try is
 * counted on it (compare and set) and written with its idempotency key before it is sent, and a try whose answer
 * was lost (a crash, a timeout) is sent again with the same key, which the provider answers with the same payment.
 * A declined try is e-mailed to the customer and tried again the next day; after the third the plan ends with its
 * period. The payment's outcome, from here or from its notification, is applied by payment-confirmation.ts.
 * The job is charge-store-renewal.ts, its tries store-renewal-tries.ts; this binds them with the scan that queues it.
 */
export function createStoreRenewals(deps: StoreRenewalsDeps) {
  const charge = (subscriptionId: string, periodEnd: Date) => chargeStoreRenewal(deps, subscriptionId, periodEnd);
  const scan = () => scanStoreRenewals(deps);
  return {
    charge,
    scan,
    handlers: {
      [SCAN_STORE_RENEWALS]: (async () => {
        const queued = await scan();
        return {
          runAgainAt: addSeconds(deps.clock(), STORE_RENEWAL.scanSeconds),
          note: `${queued} renewals due within ${STORE_RENEWAL.firstTryDaysBefore} days`,
        };
      }) satisfies JobHandler,
      [CHARGE_STORE_RENEWAL]: (async (payload) => {
        const parsed = Payload.safeParse(payload);
        if (!parsed.success) throw new PermanentJobError('Bad store renewal payload');
        return charge(parsed.data.subscriptionId, new Date(parsed.data.periodEnd));
      }) satisfies JobHandler,
    },
  };
}

export type StoreRenewals = ReturnType<typeof createStoreRenewals>;
