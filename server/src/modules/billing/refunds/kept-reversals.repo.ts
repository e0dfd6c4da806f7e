import type { Db } from '../../../db/knex.js';
import { parseJson, toJson } from '../../../db/values.js';
import type { PaymentEvent } from '../../../payments/payment-driver.js';

/** A refund, dispute or dispute outcome the provider reported for a payment not confirmed here yet. */
export type KeptReversal = Extract<PaymentEvent, { kind: 'refunded' | 'refund_failed' | 'disputed' | 'dispute_closed' }>;

/**
 * Reversals that overtook their payment's confirmation (a refund made in the provider's dashboard before
 * checkout.session.completed reached us): kept by payment ref, and applied, oldest first, in the same
 * database transaction that confirms the payment.
 */
export function createKeptReversalsRepo() {
  return {
    async keep(event: KeptReversal, now: Date, trx: Db): Promise<void> {
      await trx('kept_reversals').insert({ payment_ref: event.paymentRef, kind: event.kind, event: toJson(event), created_at: now });
    },

    /** The reversals kept for this payment and not applied yet, oldest first, marked applied (in `trx`, so a rollback keeps them). */
    async take(paymentRef: string, now: Date, trx: Db): Promise<KeptReversal[]> {
      const rows = await trx('kept_reversals').where({ payment_ref: paymentRef }).whereNull('applied_at').orderBy('id', 'asc');
      if (rows.length === 0) return [];
      await trx('kept_reversals')
        .whereIn(
          'id',
          rows.map((row) => row.id as number),
        )
        .update({ applied_at: now });
      return rows.map((row) => parseJson<KeptReversal>(row.event, {} as KeptReversal));
    },
  };
}

export type KeptReversalsRepo = ReturnType<typeof createKeptReversalsRepo>;
