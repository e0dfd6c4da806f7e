import { BILLING_MESSAGES, type CheckoutStarted } from '../../../../../shared/billing.js';
import type { CheckoutBody } from '../../../../../shared/billing-schemas.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { AppError } from '../../../errors.js';
import type { PlanRecord } from '../../plans/index.js';
import type { AppliedPromo } from '../../promo-codes/index.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutKind, TrialConversion } from '../billing.repo.js';
import { sitePage, type CheckoutDeps } from './checkout-deps.js';
import { newOrderIds } from './order-rows.js';
import {
  assertCanProvision,
  bonusDaysOf,
  choosePromo,
  insufficientBalance,
  orderTotal,
  quotedTotal,
  resolveOrder,
  spendCredit,
  type ChosenPromo,
} from './order-terms.js';

/** Orders no provider is asked about: nothing left to pay after a code or credit, or paid from the wallet. */

/**
 * A promo code, or referral credit, that leaves nothing to pay: the order is written as paid, with the code's use and
 * the credit spent, in one transaction (order-rows.ts). The customer goes to the thank-you page, which follows it as
 * it follows a payment.
 */
export async function startFreeOrder(
  deps: CheckoutDeps,
  user: UserProfile,
  order: {
    plan: PlanRecord;
    kind: CheckoutKind;
    renewedAccountId: string | null;
    currency: string;
    promo: ChosenPromo | null;
    bonusDays: number;
    /** Paid from the wallet, as the customer chose: a balance spent meanwhile (another order, in another tab) is theirs to top up. */
    fromWallet?: boolean;
    /** The order's unique name, when it must be placed once (an automatic renewal of one period). */
    checkoutId?: string;
    /** The trial with a price, and the trial account a purchase converts (resolveOrder). */
    trial?: boolean;
    convertsTrial?: TrialConversion | null;
  },
): Promise<CheckoutStarted> {
  const { plan, kind, currency, bonusDays } = order;
  const ids = newOrderIds(order.renewedAccountId);
  let checkoutId = '';
  let creditSpent = 0;
  await deps.db.transaction(async (trx) => {
    const write = async (promo: AppliedPromo | null) => {
      const total = orderTotal(plan, promo);
      creditSpent = total > 0 ? await spendCredit(deps, trx, user, { currency, total, transactionId: ids.transactionId, leaveCharge: false, kind }) : 0;
      if (total - creditSpent !== 0 && order.fromWallet) throw insufficientBalance(total - creditSpent);
      // The code's terms cannot change, but its plan's price (or the customer's credit) could have since it was quoted.
      if (total - creditSpent !== 0) throw new AppError(409, 'price_changed', BILLING_MESSAGES.priceChanged);
      checkoutId = await deps.orders.placeFree(trx, {
        user,
        plan,
        kind,
        currency,
        ids,
        promo,
        creditSpent,
        bonusDays,
        ...(order.checkoutId ? { checkoutId: order.checkoutId } : {}),
        trial: order.trial,
        convertsTrial: order.convertsTrial,
      });
    };
    if (order.promo)
      await deps.promos.redeem(
        trx,
        { ...order.promo, userId: user.id, plan, currency, transactionId: ids.transactionId, subscriptionId: ids.subscriptionId },
        write,
      );
    else await write(null);
  });
  await deps.accounts.insertLog({
    accountId: ids.accountId,
    userId: user.id,
    step: 'checkout_started',
    status: 'success',
    details: {
      transactionId: ids.transactionId,
      checkoutId,
      planId: plan.id,
      amount: 0,
      kind,
      ...(order.promo ? { promoCode: order.promo.promoCode } : {}),
      ...(creditSpent > 0 ? { creditSpent } : {}),
    },
    now: deps.clock(),
  });
  return {
    url: `${sitePage(deps, user, '/thank-you')}?session_id=${encodeURIComponent(checkoutId)}`,
    sessionId: checkoutId,
    subscriptionId: ids.subscriptionId,
  };
}

/**
 * `method: "wallet"`: the whole order paid from the customer's balance (a plan's price after a promo code), written
 * as paid with what it spent, in one transaction; 409 `insufficient_balance` with what is missing when the balance
 * does not cover it. No provider is asked: the thank-you page follows it as it follows a payment.
 */
export async function startWalletOrder(deps: CheckoutDeps, user: UserProfile, body: CheckoutBody, currency: string): Promise<CheckoutStarted> {
  const { plan, kind, accountId: renewedAccountId, trial, convertsTrial } = await resolveOrder(deps, user, body);
  const chosen = await choosePromo(deps, user, plan, body.promoCode, trial);
  const total = await quotedTotal(deps, user, plan, chosen);
  const available = deps.credit ? await deps.credit.available(user.id, currency, deps.clock()) : 0;
  if (available < total) throw insufficientBalance(total - available);
  await assertCanProvision(deps, plan);
  const bonusDays = await bonusDaysOf(deps, user, trial);
  return startFreeOrder(deps, user, { plan, kind, renewedAccountId, currency, promo: chosen, bonusDays, fromWallet: true, trial, convertsTrial });
}

/**
 * An account set to renew from the balance, renewed from it for the period after `periodEnd`: once, whoever
 * asks (the order is named by the account and the period). `renewed: false` with what is missing when the
 * balance does not cover the plan's price.
 */
export async function renewFromWallet(
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  periodEnd: Date,
): Promise<{ renewed: true; orderId: string } | { renewed: false; needed: number }> {
  const { currency } = await deps.settings.getAppSettings();
  const { plan, kind } = await resolveOrder(deps, user, { accountId });
  const available = deps.credit ? await deps.credit.available(user.id, currency, deps.clock()) : 0;
  if (available < plan.price) return { renewed: false, needed: plan.price - available };
  await assertCanProvision(deps, plan);
  const checkoutId = `wallet_renewal:${accountId}:${periodEnd.toISOString()}`;
  try {
    await startFreeOrder(deps, user, { plan, kind, renewedAccountId: accountId, currency, promo: null, bonusDays: 0, fromWallet: true, checkoutId });
  } catch (err) {
    // Renewed for this period already (by another runner, or before a restart): nothing more is taken.
    if (isUniqueViolation(err)) return { renewed: true, orderId: checkoutId };
    if (err instanceof AppError && err.code === 'insufficient_balance') return { renewed: false, needed: err.details.needed ?? plan.price };
    throw err;
  }
  return { renewed: true, orderId: checkoutId };
}
