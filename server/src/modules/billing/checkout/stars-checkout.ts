import { STARS_CURRENCY } from '../../../../../shared/billing-schemas.js';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import { PaymentProviderError, type CheckoutOrder, type CheckoutState, type PaymentDriver } from '../../../payments/payment-driver.js';
import type { PlanRecord } from '../../plans/index.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutKind, TransactionRecord } from '../billing.repo.js';
import { recurringPriceSpec } from '../recurring/recurring-catalog.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { newOrderIds } from './order-rows.js';
import { assertCanProvision, bonusDaysOf, resolveOrder } from './order-terms.js';
import { CHECKOUT_SESSION_TTL_SECONDS } from './checkout-timing.js';
import { enqueueFollowUp } from './follow-up.js';
import { confirmStarsRenewal, type StarsPayment, type StarsPaymentOutcome } from './stars-renewal.js';
import { openCheckout, recordStarted } from './start-checkout.js';

export type { StarsPayment, StarsPaymentOutcome, StarsSubscriptionPayment } from './stars-renewal.js';

/** An order in Telegram Stars, opened: the invoice link the bot gives the customer, and what it buys. */
export interface StarsCheckout {
  /** Telegram's invoice link (https://t.me/$…): Telegram's own payment sheet opens on it. */
  url: string;
  transactionId: string;
  stars: number;
  kind: CheckoutKind;
  planId: string;
  /** A Telegram Stars subscription: the link charges `stars` again every 30 days until auto-renew is turned off. */
  renews: boolean;
}

/**
 * A monthly recurring plan bought in the bot is a Telegram Stars subscription (a provider subscription, as Stripe's
 * are): the driver names the one period Telegram has. Null for anything else, which is paid once: a renewal by hand,
 * or a plan that is one-off, or renews other than monthly.
 */
async function subscriptionTerms(
  deps: CheckoutDeps,
  driver: PaymentDriver,
  user: UserProfile,
  sold: PlanRecord,
  kind: CheckoutKind,
): Promise<CheckoutOrder['recurring'] | null> {
  const spec = recurringPriceSpec(sold, STARS_CURRENCY);
  const monthly = spec?.interval.unit === 'month' && spec.interval.count === 1;
  if (kind !== 'purchase' || !spec || !monthly || driver.capabilities.recurring !== 'provider_subscriptions') return null;
  try {
    // Telegram has no customers: whoever pays the link subscribes (our user is named for the log).
    return { customerRef: user.id, priceRef: await driver.ensureRecurringPrice(spec) };
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.error({ err, planId: sold.id, userId: user.id }, 'payment: Telegram Stars refused the plan as a subscription');
    throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
  }
}

/**
 * A plan bought or an account renewed in Telegram Stars, from the bot: at the plan's Stars price, with no code and no
 * credit (those are in the store's currency). A monthly recurring plan is a Telegram Stars subscription (renewed by
 * Telegram every 30 days: its renewals arrive as payments, stars-renewal.ts); anything else is one period paid once.
 * The rows and the follow-up come first, as every order's do; the invoice's payload is the transaction id.
 */
export async function startStarsCheckout(deps: CheckoutDeps, user: UserProfile, body: { planId: string } | { accountId: string }): Promise<StarsCheckout> {
  const { plan, kind, accountId: renewedAccountId, trial, convertsTrial } = await resolveOrder(deps, user, body);
  const stars = plan.starsPrice;
  if (stars === null) throw new AppError(400, 'not_purchasable', BILLING_MESSAGES.starsNotSold);
  const { driver, providerId, providerAccountId } = await deps.payments.forCheckout('stars', STARS_CURRENCY);
  await assertCanProvision(deps, plan);
  // The order keeps the plan as it was sold: priced in the order's currency.
  const sold = { ...plan, price: stars };
  const recurring = await subscriptionTerms(deps, driver, user, sold, kind);
  // A referral's extra days move a subscription's next charge after them, which Telegram cannot do: a subscription takes none.
  const bonusDays = recurring ? 0 : await bonusDaysOf(deps, user, trial);
  const ids = newOrderIds(renewedAccountId);
  const { transactionId, subscriptionId, accountId } = ids;
  await deps.db.transaction(async (trx) => {
    const now = deps.clock();
    await deps.orders.insert(trx, now, {
      user,
      plan: sold,
      kind,
      currency: STARS_CURRENCY,
      ids,
      amount: stars,
      providerId,
      providerAccountId,
      billing: recurring ? 'recurring' : 'one_off',
      bonusDays,
      trial,
      convertsTrial,
    });
    await enqueueFollowUp(deps, trx, transactionId, now);
  });
  const checkout = await openCheckout(deps, driver, {
    user,
    plan: sold,
    kind,
    transactionId,
    subscriptionId,
    accountId,
    currency: STARS_CURRENCY,
    recurring,
    promo: null,
    creditSpent: 0,
    bonusDays,
    saveMethod: false,
    amount: stars,
  });
  await recordStarted(deps, { accountId, userId: user.id, checkoutId: checkout.checkoutId, transactionId, planId: plan.id, amount: stars, kind });
  return { url: checkout.url, transactionId, stars, kind, planId: plan.id, renews: recurring !== null };
}

/**
 * Telegram's pre-checkout query: whether it may take the Stars for this order now. Only an order of ours, still
 * waiting, for exactly this many Stars and within its hour, is paid; Telegram takes nothing when this says no.
 */
export async function starsOrderPayable(deps: CheckoutDeps, orderId: string, stars: number): Promise<boolean> {
  const transaction = await deps.billing.findTransaction(orderId);
  if (!transaction || transaction.status !== 'pending' || transaction.currency !== STARS_CURRENCY || transaction.amount !== stars) return false;
  return deps.clock().getTime() < transaction.createdAt.getTime() + CHECKOUT_SESSION_TTL_SECONDS * 1000;
}

/**
 * Telegram's successful_payment: applied as any provider's paid checkout is (exactly once, however often Telegram
 * sends it, and whichever comes first of it and the follow-up's read). A subscription's first payment is its checkout
 * paid with its first invoice (the subscription is linked to ours by it), and a renewal is an invoice of its own
 * (stars-renewal.ts). `paid`: it paid its order; `renewed`: a renewal extended its account; `known`: nothing new to
 * say (a renewal already applied); `closed`: the order was no longer waiting (or is not ours), so nothing was
 * delivered and the caller sends the Stars back.
 */
export async function confirmStarsPayment(deps: CheckoutDeps, payment: StarsPayment): Promise<StarsPaymentOutcome> {
  const transaction = await deps.billing.findTransaction(payment.orderId);
  if (!transaction?.providerTransactionId || transaction.currency !== STARS_CURRENCY) return 'closed';
  if (payment.subscription && !payment.subscription.first) return confirmStarsRenewal(deps, transaction, payment, payment.subscription);
  await deps.confirmation.apply(paidCheckoutOf(transaction, payment));
  const after = await deps.billing.findTransaction(payment.orderId);
  return after?.status === 'succeeded' && after.providerPaymentId === payment.chargeId ? 'paid' : 'closed';
}

/** The order's checkout as the payment says it was paid; a subscription's first payment carries its subscription and first invoice. */
function paidCheckoutOf(transaction: TransactionRecord, payment: StarsPayment): CheckoutState {
  const paid: CheckoutState = {
    checkoutId: transaction.providerTransactionId!,
    orderId: transaction.id,
    outcome: 'paid',
    amountPaid: payment.stars,
    currency: STARS_CURRENCY,
    paymentRef: payment.chargeId,
  };
  const subscription = payment.subscription;
  if (!subscription?.first) return paid;
  return {
    ...paid,
    subscriptionRef: subscription.ref,
    invoice: {
      invoiceId: payment.chargeId,
      subscriptionRef: subscription.ref,
      orderRef: transaction.subscriptionId,
      outcome: 'paid',
      first: true,
      amountDue: payment.stars,
      amountPaid: payment.stars,
      currency: STARS_CURRENCY,
      periodStart: subscription.paidAt,
      periodEnd: subscription.expiresAt,
      paymentRef: payment.chargeId,
      nextAttemptAt: null,
    },
  };
}
