import type { CreatePromoCodeBody, UpdatePromoCodeBody } from '../../../../shared/promo-codes.js';
import type { Db } from '../../db/knex.js';
import type { PlanRecord } from '../plans/index.js';
import type { Actor } from '../users/index.js';
import { createPromoCode, listPromoCodes, removePromoCode, updatePromoCode } from './promo-admin.js';
import { keepProviderTotal, quotePromo, redeemPromo, referralCode, type AppliedPromo, type PromoOrder } from './promo-checkout.js';
import type { PromoCodesDeps } from './promo-codes-deps.js';

export { promoInvalid, type AppliedPromo } from './promo-checkout.js';
export type { PromoCodesDeps } from './promo-codes-deps.js';

/**
 * The admin's promo codes, and the one question checkout asks: what does this code do to this plan for this customer.
 * Each use case is a function of its own (promo-admin.ts, promo-checkout.ts) taking the dependencies first; this binds them.
 */
export function createPromoCodesService(deps: PromoCodesDeps) {
  return {
    list: () => listPromoCodes(deps),
    create: (actor: Actor, body: CreatePromoCodeBody) => createPromoCode(deps, actor, body),
    update: (actor: Actor, id: string, body: UpdatePromoCodeBody) => updatePromoCode(deps, actor, id, body),
    /** A code nobody has used goes; one with redemptions stays for the records (switch it off instead). */
    remove: (actor: Actor, id: string) => removePromoCode(deps, actor, id),
    /** The provider's total for a checkout made with a code becomes the transaction's and the redemption's. */
    keepProviderTotal: (transactionId: string, total: number) => keepProviderTotal(deps, transactionId, total),
    /** What the code does to the plan's price for this customer now (no use is taken). */
    quote: (userId: string, plan: PlanRecord, promoCode: string | undefined, options?: { referral?: boolean }) =>
      quotePromo(deps, userId, plan, promoCode, options),
    /** The referral programme's code for a first-payment discount of `percent` %, made the first time it is needed. */
    referralCode: (percent: number) => referralCode(deps, percent),
    /** Takes one use of the code for a checkout, in the checkout's own database transaction (`trx`). */
    redeem: (trx: Db, order: PromoOrder, writeCheckout: (applied: AppliedPromo) => Promise<void>) => redeemPromo(deps, trx, order, writeCheckout),
  };
}

export type PromoCodesService = ReturnType<typeof createPromoCodesService>;
