import { renderPartialPaymentEmail, renderPaymentFailedEmail, renderReceiptEmail } from '../../mail/billing-emails.js';
import type { SubscriptionRecord, TransactionRecord } from './billing.repo.js';
import { named, type BillingEmailDeps, type ComposedEmail, type EmailFrame, type NoticeOf } from './billing-email-deps.js';
import { boughtPlanName } from './bought-plan-name.js';
import { graceEndOf } from './ledger/paid-period.js';
import { nextChargeAmount } from './promo-terms.js';
import { convertedTrial } from './trials/trial-rules.js';

/** The e-mails about one payment: its receipt, its failure, or a crypto payment that came short. */

/** The payment a notice names, with its order and the plan name it was sold under. */
interface PaidOrder {
  transaction: TransactionRecord;
  subscription: SubscriptionRecord;
  planName: string;
}

export async function composePaymentEmail(
  deps: BillingEmailDeps,
  notice: NoticeOf<'receipt' | 'payment_failed' | 'partial_payment'>,
  frame: EmailFrame,
): Promise<ComposedEmail> {
  const { billing } = deps;
  const transaction = await billing.findTransaction(notice.transactionId);
  const subscription = transaction && (await named(deps, await billing.findSubscription(transaction.subscriptionId)));
  if (!transaction || !subscription) return null;
  const order: PaidOrder = { transaction, subscription, planName: transaction.metadata.plan_name ?? subscription.metadata.plan_name };
  if (notice.kind === 'partial_payment') return partialPaymentEmail(order, frame);
  if (notice.kind === 'payment_failed') return paymentFailedEmail(deps, notice, order, frame);
  return receiptEmail(deps, order, frame);
}

function partialPaymentEmail({ transaction, subscription, planName }: PaidOrder, frame: EmailFrame): ComposedEmail {
  const review = transaction.metadata.review;
  // Paid in full after all (or already refunded) before the e-mail went: there is nothing to tell.
  if (transaction.status !== 'needs_review' || review?.reason !== 'partial_payment' || review.amount_paid === null) return null;
  const amountPaid = review.amount_paid;
  return {
    userId: transaction.userId,
    render: (to, locale) =>
      renderPartialPaymentEmail({
        to,
        locale,
        ...frame,
        planName: boughtPlanName(subscription.metadata, locale, planName),
        amount: transaction.amount,
        currency: transaction.currency,
        amountPaid,
      }),
  };
}

async function paymentFailedEmail(
  deps: BillingEmailDeps,
  notice: NoticeOf<'payment_failed'>,
  { transaction, subscription, planName }: PaidOrder,
  frame: EmailFrame,
): Promise<ComposedEmail> {
  // A plan renewed here is charged before its period ends, and runs until then whatever happens.
  const renewedHere = subscription.metadata.renewed_by === 'store';
  const graceEndsAt = (renewedHere ? subscription.currentPeriodEnd : graceEndOf(subscription, await deps.paidPeriods.graceMs())) ?? deps.clock();
  return {
    userId: transaction.userId,
    render: (to, locale) =>
      renderPaymentFailedEmail({
        to,
        locale,
        ...frame,
        planName: boughtPlanName(subscription.metadata, locale, planName),
        amount: transaction.amount,
        currency: transaction.currency,
        graceEndsAt,
        nextAttemptAt: notice.nextAttemptAt ? new Date(notice.nextAttemptAt) : null,
        renewedHere,
      }),
  };
}

async function receiptEmail(deps: BillingEmailDeps, { transaction, subscription, planName }: PaidOrder, frame: EmailFrame): Promise<ComposedEmail> {
  const recurring = subscription.billing === 'recurring';
  // The period this payment bought, as the ledger has it.
  const periodEnd = (await deps.periods.forTransaction(transaction.id))?.endsAt ?? subscription.currentPeriodEnd;
  const renews = recurring && !subscription.cancelAtPeriodEnd && subscription.status !== 'canceled';
  return {
    userId: transaction.userId,
    render: (to, locale) =>
      renderReceiptEmail({
        to,
        locale,
        ...frame,
        planName: boughtPlanName(subscription.metadata, locale, planName),
        amount: transaction.amount,
        currency: transaction.currency,
        paidAt: transaction.createdAt,
        periodEnd,
        renewal: (transaction.metadata.kind ?? subscription.metadata.kind) === 'renewal',
        recurring,
        nextChargeAt: renews ? periodEnd : null,
        receiptNumber: transaction.id.slice(0, 8).toUpperCase(),
        ...(renews && periodEnd ? { nextChargeAmount: nextChargeAmount(subscription, periodEnd) } : {}),
        promo: transaction.metadata.promo
          ? { code: transaction.metadata.promo.code, amountBefore: transaction.metadata.promo.amount_before, discount: transaction.metadata.promo.discount }
          : null,
        // Our credit spent on a one-off order, or the provider's balance taken off a renewal.
        credit: transaction.metadata.credit_spent ?? transaction.metadata.credit_applied ?? null,
        // A referral's extra days came with the order's first payment, not its renewals.
        bonusDays: transaction.metadata.kind === 'renewal' ? undefined : subscription.metadata.bonus_days,
        change: changeCredit(subscription, transaction),
        trialBecame: convertedTrial(subscription, transaction),
      }),
  };
}

/** What a plan change credited, for its receipt: its order's (a change paid once), or its payment's (a card subscription's change). */
function changeCredit(subscription: SubscriptionRecord, transaction: TransactionRecord): { credit: number; creditDays: number } | null {
  const change = transaction.metadata.plan_change ?? subscription.metadata.change;
  return change ? { credit: change.credit, creditDays: change.credit_days } : null;
}
