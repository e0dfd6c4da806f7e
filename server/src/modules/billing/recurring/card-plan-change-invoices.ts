import { randomUUID } from 'node:crypto';
import { PLAN_CHANGE_MESSAGES } from '../../../../../shared/plan-changes.js';
import type { Db } from '../../../db/knex.js';
import type { InvoiceState } from '../../../payments/payment-driver.js';
import { sourcesOf } from '../../orders/index.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { enqueueFulfilment } from '../fulfilment/paid-account-jobs.js';
import { findRecurring, type RecurringPaymentsDeps } from './recurring-payments-deps.js';

/**
 * A card subscription's plan change (checkout/card-plan-change.ts), made by the provider's proration invoice: paid, it
 * is the change's own movement in the ledger, applied once whoever brings it (the change's answer, its webhook, the
 * reconcile job). The account's paid periods end at the instant it was prorated for (the provider credited the rest),
 * and the change's own period runs from there to the subscription's period end: one timeline, nothing overlapping.
 */

/** The plan change a proration invoice makes (its subscription's metadata names our transaction of it), if it is one. */
export async function planChangeOf(
  deps: RecurringPaymentsDeps,
  invoice: InvoiceState,
  trx: Db,
): Promise<{ subscription: SubscriptionRecord; transaction: TransactionRecord } | null> {
  if (!invoice.forChange || !invoice.changeRef) return null;
  const subscription = await findRecurring(deps, invoice, trx);
  if (!subscription) return null;
  const transaction = await deps.billing.findTransaction(invoice.changeRef, trx);
  if (!transaction?.metadata.plan_change || transaction.subscriptionId !== subscription.id) return null;
  return { subscription, transaction };
}

/**
 * Applies the change's proration invoice: paid, the change is made here (ledger, account, subscription, panel by the
 * fulfilment job); failed, the change is closed (with `error_if_incomplete` the provider did not make it either).
 */
export async function applyPlanChangeInvoice(
  deps: RecurringPaymentsDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  invoice: InvoiceState,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, clock } = deps;
  const now = clock();
  if (invoice.outcome === 'failed') return billing.markTransactionFailed(transaction.id, PLAN_CHANGE_MESSAGES.cardDeclined, now, trx);
  if (invoice.outcome !== 'paid') return false;
  const locked = await billing.findTransactionForUpdate(transaction.id, trx);
  if (!locked || !sourcesOf('paid').includes(locked.status)) return false;
  const change = locked.metadata.plan_change!;
  const accountId = subscription.vpnAccountId;
  if (accountId) await billing.lockAccount(accountId, trx);
  const paid = { invoiceId: invoice.invoiceId, paymentRef: invoice.paymentRef, amount: invoice.amountPaid, creditApplied: invoice.creditApplied };
  if (!(await billing.markInvoicePaid(transaction.id, paid, now, trx))) return false;
  const at = new Date(change.prorate_at);
  const cut = accountId ? await deps.periods.cutAt(accountId, at, transaction.id, now, trx) : [];
  // To the subscription's period end (the billing cycle does not move), or what the cut periods ran to, if later.
  const endsAt = new Date(Math.max(invoice.periodEnd.getTime(), ...cut.map((period) => period.endsAt.getTime())));
  const recorded = await deps.periods.insert(
    { id: randomUUID(), vpnAccountId: accountId, transactionId: transaction.id, subscriptionId: subscription.id, billing: 'recurring', startsAt: at, endsAt },
    now,
    trx,
  );
  if (recorded.kind === 'overlaps') throw new Error(`The plan change ${transaction.id} would overlap the paid period ${recorded.period.id}`);
  // Its renewals bill and deliver the new plan from now on.
  const { error: _cleared, past_due_since: _paid, ...metadata } = subscription.metadata;
  await billing.updateSubscription(subscription.id, { metadata: { ...metadata, ...change.to } }, now, trx);
  if (accountId) await accounts.setPlan(accountId, { planId: change.to.plan_id, deviceLimit: change.to.device_limit ?? null }, now, trx);
  await enqueueFulfilment(deps.jobs, { transactionId: transaction.id, accountId }, now, trx);
  // A downgrade charged nothing: the provider's credit note for it is its own; a charge gets our receipt.
  if (invoice.amountPaid > 0) await deps.notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
  await accounts.insertLog(
    {
      accountId,
      userId: subscription.userId,
      step: 'plan_changed',
      status: 'success',
      details: {
        transactionId: transaction.id,
        invoiceId: invoice.invoiceId,
        from: change.from_plan_id,
        to: change.to.plan_id,
        cutPeriods: cut.map((period) => period.id),
        charged: invoice.amountPaid,
        credit: change.credit,
      },
      now,
    },
    trx,
  );
  deps.log.info({ transactionId: transaction.id, invoiceId: invoice.invoiceId }, 'recurring: a card subscription changed plan');
  await deps.reversals.applyKept(invoice.paymentRef, trx);
  return true;
}
