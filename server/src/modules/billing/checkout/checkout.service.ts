import type { BuyAddOnBody } from '../../../../../shared/add-ons.js';
import { startAddOnCheckout } from './start-add-on.js';
import type { PlanChangeBody, PlanChangeQuoteBody } from '../../../../../shared/plan-changes.js';
import { cancelScheduledPlanChange, quotePlanChange, startPlanChange } from './start-plan-change.js';
import type { CheckoutBody } from '../../../../../shared/billing-schemas.js';
import type { CheckoutQuoteBody } from '../../../../../shared/promo-codes.js';
import type { PlanRecord } from '../../plans/index.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutDeps } from './checkout-deps.js';
import { cancelCheckout, closeOpenRenewals, getCheckoutStatus } from './checkout-returns.js';
import { renewFromWallet } from './free-orders.js';
import { assertCanProvision } from './order-terms.js';
import { confirmStarsPayment, starsOrderPayable, startStarsCheckout, type StarsPayment } from './stars-checkout.js';
import { quoteCheckout, startCheckout } from './start-checkout.js';

export { CHECK_CHECKOUT, CHECKOUT_SESSION_TTL_SECONDS, FIRST_FOLLOW_UP_SECONDS } from './checkout-timing.js';
export type { CheckoutDeps } from './checkout-deps.js';
export type { StarsCheckout, StarsPayment, StarsPaymentOutcome, StarsSubscriptionPayment } from './stars-checkout.js';

/**
 * Checkout: each use case is a function of its own (start-checkout.ts, free-orders.ts, checkout-returns.ts,
 * order-terms.ts) taking the dependencies first; this binds them once for the routes and the other modules.
 */
export function createCheckoutService(deps: CheckoutDeps) {
  return {
    assertCanProvision: (plan: PlanRecord) => assertCanProvision(deps, plan),
    renewFromWallet: (user: UserProfile, accountId: string, periodEnd: Date) => renewFromWallet(deps, user, accountId, periodEnd),
    quote: (user: UserProfile, body: CheckoutQuoteBody) => quoteCheckout(deps, user, body),
    startCheckout: (user: UserProfile, body: CheckoutBody) => startCheckout(deps, user, body),
    /** From the Telegram bot: the plan's Stars price, as an invoice link. */
    startStarsCheckout: (user: UserProfile, body: { planId: string } | { accountId: string }) => startStarsCheckout(deps, user, body),
    starsOrderPayable: (orderId: string, stars: number) => starsOrderPayable(deps, orderId, stars),
    confirmStarsPayment: (payment: StarsPayment) => confirmStarsPayment(deps, payment),
    closeOpenRenewals: (accountId: string) => closeOpenRenewals(deps, accountId),
    quotePlanChange: (user: UserProfile, accountId: string, body: PlanChangeQuoteBody) => quotePlanChange(deps, user, accountId, body.planId),
    startPlanChange: (user: UserProfile, accountId: string, body: PlanChangeBody) => startPlanChange(deps, user, accountId, body),
    cancelScheduledPlanChange: (user: UserProfile, accountId: string) => cancelScheduledPlanChange(deps, user, accountId),
    startAddOn: (user: UserProfile, accountId: string, body: BuyAddOnBody) => startAddOnCheckout(deps, user, accountId, body),
    cancelCheckout: (user: UserProfile, orderId: string) => cancelCheckout(deps, user, orderId),
    getCheckoutStatus: (user: UserProfile, sessionId: string) => getCheckoutStatus(deps, user, sessionId),
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
