import type { Db } from '../../db/knex.js';
import { billingListRows } from './billing-lists.repo.js';
import { billingOrderRows } from './billing-orders.repo.js';
import { billingInvoiceRows, billingSubscriptionRows } from './billing-subscriptions.repo.js';
import { billingTransitionRows } from './billing-transitions.repo.js';
import type { TransactionTransitionListener } from '../orders/index.js';

export { SUBSCRIPTION_COLUMNS, toSubscriptionRecord } from './billing-rows.js';
// The records of a sale, for billing's own files (they are the orders area's: other areas import them from there).
export type * from '../orders/index.js';

/**
 * Subscriptions, transactions and processed webhook events. Methods that take part in a payment's
 * state change take the transaction (`trx`) they run in.
 */
export function createBillingRepo(db: Db, options: { onTransition?: TransactionTransitionListener } = {}) {
  return {
    ...billingOrderRows(db),
    ...billingTransitionRows(db, options),
    ...billingSubscriptionRows(db),
    ...billingInvoiceRows(db, options),
    ...billingListRows(db),
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
