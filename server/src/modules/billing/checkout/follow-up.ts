import type { Db } from '../../../db/knex.js';
import { addSeconds } from '../../../lib/clock.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { CHECK_CHECKOUT, FIRST_FOLLOW_UP_SECONDS } from './checkout-timing.js';

/** The follow-up job of a new order (written with its rows): it asks the provider until the order is paid or closed. */
export async function enqueueFollowUp(deps: Pick<CheckoutDeps, 'jobs'>, trx: Db, transactionId: string, now: Date): Promise<void> {
  await deps.jobs.enqueue(
    {
      type: CHECK_CHECKOUT,
      payload: { transactionId },
      runAt: addSeconds(now, FIRST_FOLLOW_UP_SECONDS),
      dedupeKey: `${CHECK_CHECKOUT}:${transactionId}`,
      maxAttempts: 500,
    },
    now,
    trx,
  );
}
