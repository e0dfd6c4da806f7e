import { STARS_CURRENCY } from '../../../../../shared/billing-schemas.js';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutKind } from '../billing.repo.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { newOrderIds } from './order-rows.js';
import { assertCanProvision, bonusDaysOf, resolveOrder } from './order-terms.js';
import { CHECKOUT_SESSION_TTL_SECONDS } from './checkout-timing.js';
import { enqueueFollowUp } from './follow-up.js';
import { openCheckout, recordStarted } from './start-checkout.js';

/** An order in Telegram Stars, opened: the invoice link the bot gives the customer, and what it buys. */
export interface StarsCheckout {
  /** Telegram's invoice link (https://t.me/$…): Telegram's own payment sheet opens on it. */
  url: string;
  transactionId: string;
  stars: number;
  kind: CheckoutKind;
  planId: string;
}

/**
 * A plan bought or an account renewed in Telegram Stars, from the bot: at the plan's Stars price, with no code and no
 * credit (those are in the store's currency), one period paid once (Telegram Stars subscriptions are not offered yet).
 * The rows and the follow-up come first, as every order's do; the invoice's payload is the transaction id.
 */
export async function startStarsCheckout(deps: CheckoutDeps, user: UserProfile, body: { planId: string } | { accountId: string }): Promise<StarsCheckout> {
  const { plan, kind, accountId: renewedAccountId } = await resolveOrder(deps, user, body);
  const stars = plan.starsPrice;
  if (stars === null) throw new AppError(400, 'not_purchasable', BILLING_MESSAGES.starsNotSold);
  const { driver, providerId, providerAccountId } = await deps.payments.forCheckout('stars', STARS_CURRENCY);
  await assertCanProvision(deps, plan);
  const bonusDays = await bonusDaysOf(deps, user);
  const ids = newOrderIds(renewedAccountId);
  const { transactionId, subscriptionId, accountId } = ids;
  // The order keeps the plan as it was sold: priced in the order's currency.
  const sold = { ...plan, price: stars };
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
      billing: 'one_off',
      bonusDays,
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
    recurring: null,
    promo: null,
    creditSpent: 0,
    bonusDays,
    saveMethod: false,
    amount: stars,
  });
  await recordStarted(deps, { accountId, userId: user.id, checkoutId: checkout.checkoutId, transactionId, planId: plan.id, amount: stars, kind });
  return { url: checkout.url, transactionId, stars, kind, planId: plan.id };
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
 * sends it, and whichever comes first of it and the follow-up's read). `paid`: it paid its order; `closed`: the order
 * was no longer waiting (or is not ours), so nothing was delivered and the caller sends the Stars back.
 */
export async function confirmStarsPayment(deps: CheckoutDeps, payment: { orderId: string; stars: number; chargeId: string }): Promise<'paid' | 'closed'> {
  const transaction = await deps.billing.findTransaction(payment.orderId);
  if (!transaction?.providerTransactionId || transaction.currency !== STARS_CURRENCY) return 'closed';
  await deps.confirmation.apply({
    checkoutId: transaction.providerTransactionId,
    orderId: transaction.id,
    outcome: 'paid',
    amountPaid: payment.stars,
    currency: STARS_CURRENCY,
    paymentRef: payment.chargeId,
  });
  const after = await deps.billing.findTransaction(payment.orderId);
  return after?.status === 'succeeded' && after.providerPaymentId === payment.chargeId ? 'paid' : 'closed';
}
