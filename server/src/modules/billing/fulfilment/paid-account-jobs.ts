import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';

/** Creates or extends the account a succeeded payment bought (see fulfilment.ts). */
export const PROVISION_PAID_ACCOUNT = 'provision_paid_account';
/** A paid order is never given up on: with the back-off capped, this is weeks of retries (the admin sees it under System). */
export const PROVISION_MAX_ATTEMPTS = 5000;
/** Lowers the panel data limit of a traffic add-on that was refunded (see deliver-add-on.ts); payload `{ transactionId }`. */
export const REVOKE_ADD_ON = 'revoke_add_on';

/**
 * Queues the delivery of a succeeded payment (fulfilment.ts) in the caller's database transaction, in the account's
 * serial queue, once per payment (`again`: a later reason to deliver it once more, such as a dispute won).
 */
export async function enqueueFulfilment(
  jobs: JobsRepo,
  order: { transactionId: string; accountId: string | null | undefined; again?: string },
  now: Date,
  trx: Db,
): Promise<void> {
  await jobs.enqueue(
    {
      type: PROVISION_PAID_ACCOUNT,
      payload: { transactionId: order.transactionId },
      serialKey: accountSerialKey(order.accountId),
      dedupeKey: `${PROVISION_PAID_ACCOUNT}:${order.transactionId}${order.again ? `:${order.again}` : ''}`,
      maxAttempts: PROVISION_MAX_ATTEMPTS,
    },
    now,
    trx,
  );
}
