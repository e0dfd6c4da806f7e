import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import type { CheckoutState, InvoiceState } from '../../../payments/payment-driver.js';
import type { TransactionRecord } from '../billing.repo.js';
import { applyCheckout } from './apply-checkout.js';
import { closeUnpaid, recordCancelRequest } from './close-unpaid.js';
import type { PaymentConfirmationDeps } from './payment-confirmation-deps.js';

export { PROVISION_MAX_ATTEMPTS, PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';
export type { PaymentConfirmationDeps } from './payment-confirmation-deps.js';

/**
 * Applies what a payment provider says about a checkout to our records, exactly once: the webhook,
 * the return pages' check and the follow-up job all come here, in any order and as often as they
 * like. Each change runs in the caller's database transaction and is gated by a conditional update of
 * the transaction's status. The steps are functions of their own (apply-checkout.ts, confirm-paid.ts,
 * close-unpaid.ts) taking the dependencies first; this binds them once.
 */
export function createPaymentConfirmation(deps: PaymentConfirmationDeps) {
  return {
    applyCheckout: (state: CheckoutState, trx: Db) => applyCheckout(deps, state, trx),

    /** The same in a transaction of its own (the return check and the follow-up job). */
    apply: (state: CheckoutState) => deps.db.transaction((trx) => applyCheckout(deps, state, trx)),

    /**
     * A provider subscription's invoice heard of outside a webhook or a read (a Telegram Stars renewal's
     * successful_payment), in a transaction of its own: applied as any invoice is, once; true when it changed something.
     */
    applyInvoice: (invoice: InvoiceState) => deps.db.transaction((trx) => deps.recurring.applyInvoice(invoice, trx)),

    /** A checkout whose session was never saved (the server stopped mid-way): nobody can have paid it. */
    markAbandoned: (transaction: TransactionRecord) => deps.db.transaction((trx) => closeUnpaid(deps, transaction, BILLING_MESSAGES.paymentExpired, trx)),
    /** The customer asked to cancel: noted on the pending payment before its checkout is closed at the provider. */
    recordCancelRequest: (transaction: TransactionRecord) => recordCancelRequest(deps, transaction),
    /** The customer left the provider's page with Cancel: closed like an expired one, saying so. */
    markCancelled: (transaction: TransactionRecord) =>
      deps.db.transaction((trx) => closeUnpaid(deps, transaction, BILLING_MESSAGES.paymentCancelled, trx, undefined, true)),
  };
}

export type PaymentConfirmation = ReturnType<typeof createPaymentConfirmation>;
