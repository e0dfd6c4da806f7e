import { STARS_CURRENCY } from '../../../../../shared/billing-schemas.js';
import { PaymentProviderError, type InvoiceState } from '../../../payments/payment-driver.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { CheckoutDeps } from './checkout-deps.js';

/**
 * A Telegram Stars subscription's payment, as the bot's successful_payment says it (is_recurring): when it was paid and
 * until when the subscription now runs (subscription_expiration_date). The first (is_first_recurring) starts the
 * subscription Telegram knows as `ref` (its payer and this charge: what editUserStarSubscription takes); each later one
 * renews it.
 */
export type StarsSubscriptionPayment = { paidAt: Date; expiresAt: Date } & ({ first: true; ref: string } | { first: false });

/** A payment in Telegram Stars for one of our orders (the invoice's payload is the order's transaction id). */
export interface StarsPayment {
  orderId: string;
  stars: number;
  chargeId: string;
  subscription?: StarsSubscriptionPayment;
}

export type StarsPaymentOutcome = 'paid' | 'renewed' | 'known' | 'closed';

const later = (a: Date, b: Date) => (a > b ? a : b);

/**
 * A renewal runs to Telegram's new expiry from where the period before it ends (charged a little early or late, it
 * neither overlaps nor leaves a gap), or from when it was paid after a gap (a subscription turned back on later).
 */
function renewalStart(previousEnd: Date | null, paidAt: Date, expiresAt: Date): Date {
  const start = previousEnd && previousEnd < expiresAt ? later(previousEnd, paidAt) : paidAt;
  return start < expiresAt ? start : paidAt;
}

/** Telegram stops charging a subscription that has ended here (it is not ours to renew any more); a failure is logged. */
async function stopRenewing(deps: CheckoutDeps, subscription: SubscriptionRecord, ref: string): Promise<void> {
  const driver = await deps.payments.forSubscription(subscription);
  try {
    await driver?.setCancelAtPeriodEnd(ref, true);
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.warn({ err, subscriptionId: subscription.id }, 'telegram: auto-renew of an ended Stars subscription could not be turned off');
  }
}

/**
 * A later payment of a Stars subscription: a renewal invoice of the order's subscription, applied as every provider's
 * renewal is (recurring-invoices.ts: a transaction of its own, once per charge however often the update comes, and
 * the same account extended). A subscription not linked yet (its first payment's update was lost, and the follow-up
 * has not found it) is left to the reconcile, which reads every payment. One that has ended here is not renewed: its
 * auto-renew goes off at Telegram and the caller sends the Stars back.
 */
export async function confirmStarsRenewal(
  deps: CheckoutDeps,
  transaction: TransactionRecord,
  payment: StarsPayment,
  paid: StarsSubscriptionPayment,
): Promise<StarsPaymentOutcome> {
  const subscription = await deps.billing.findSubscription(transaction.subscriptionId);
  if (subscription?.billing !== 'recurring') return 'closed';
  const ref = subscription.providerSubscriptionId;
  if (!ref) {
    deps.log.warn(
      { subscriptionId: subscription.id, chargeId: payment.chargeId },
      'telegram: a Stars renewal before its first payment was applied; left to the reconcile',
    );
    return 'known';
  }
  if (subscription.status === 'canceled') {
    await stopRenewing(deps, subscription, ref);
    return 'closed';
  }
  const invoice: InvoiceState = {
    invoiceId: payment.chargeId,
    subscriptionRef: ref,
    orderRef: subscription.id,
    outcome: 'paid',
    first: false,
    amountDue: payment.stars,
    amountPaid: payment.stars,
    currency: STARS_CURRENCY,
    periodStart: renewalStart(subscription.currentPeriodEnd, paid.paidAt, paid.expiresAt),
    periodEnd: paid.expiresAt,
    paymentRef: payment.chargeId,
    nextAttemptAt: null,
  };
  return (await deps.confirmation.applyInvoice(invoice)) ? 'renewed' : 'known';
}
