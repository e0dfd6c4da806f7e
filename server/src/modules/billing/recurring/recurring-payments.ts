import type { Db } from '../../../db/knex.js';
import type { InvoiceState, RecurringState } from '../../../payments/payment-driver.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import { applyInvoice } from './recurring-invoices.js';
import { findRecurring, type RecurringPaymentsDeps } from './recurring-payments-deps.js';
import { applyState, applyStateTo } from './recurring-state.js';

export type { RecurringPaymentsDeps } from './recurring-payments-deps.js';

/**
 * Applies what the provider says about recurring subscriptions: invoices (the first provisions the
 * account, each later one extends the same account) and the subscription's own state. Everything
 * runs in the caller's database transaction, on the subscription's row lock (PostgreSQL), and is
 * gated per invoice by its unique transaction and a conditional status change, so the webhook, the
 * return check and the reconcile job can deliver the same facts in any order, as often as they like.
 * The invoices are recurring-invoices.ts, the state recurring-state.ts; this binds them once.
 */
export function createRecurringPayments(deps: RecurringPaymentsDeps) {
  return {
    applyInvoice: (invoice: InvoiceState, trx: Db) => applyInvoice(deps, invoice, trx),
    applyState: (state: RecurringState, trx: Db, options: { byAdmin?: boolean } = {}) => applyState(deps, state, trx, options),
    applyStateTo: (
      subscription: SubscriptionRecord,
      state: Pick<RecurringState, 'status' | 'cancelAtPeriodEnd' | 'canceledAt' | 'observedAt'>,
      trx: Db,
      options: { byAdmin?: boolean } = {},
    ) => applyStateTo(deps, subscription, state, trx, options),
    find: (ref: { subscriptionRef: string; orderRef: string | null }, trx: Db) => findRecurring(deps, ref, trx),
  };
}

export type RecurringPayments = ReturnType<typeof createRecurringPayments>;
