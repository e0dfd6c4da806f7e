import { randomUUID } from 'node:crypto';
import { PROMO_MESSAGES, promoCodeKey, type CheckoutQuote, type PromoInvalidReason } from '../../../../shared/promo-codes.js';
import type { Db } from '../../db/knex.js';
import { AppError } from '../../errors.js';
import type { PlanRecord } from '../plans/index.js';
import type { PromoCodesDeps } from './promo-codes-deps.js';
import { REFERRAL_KEY_PREFIX, type PromoCodeRecord } from './promo-codes.repo.js';
import { chargeRefusal, discountOf, refusalOf, usesRefusal } from './promo-discount.js';

/** The question checkout asks of a code (what it does to this plan for this customer), and the use it takes of it. */

/** A code's key: a typed code's (a referral key can never be typed), or the referral programme's own. */
const lookupKey = (code: string, referral = false) => (referral ? `${REFERRAL_KEY_PREFIX}${promoCodeKey(code)}` : promoCodeKey(code));

export const promoInvalid = (reason: PromoInvalidReason) => new AppError(400, 'promo_invalid', PROMO_MESSAGES[reason], { reason });

/** The discount a checkout was given, as the provider is told it and the transaction keeps it. */
export interface AppliedPromo {
  promoCodeId: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  duration: PromoCodeRecord['duration'];
  durationMonths: number | null;
  amountBefore: number;
  discount: number;
  /** What the first payment charges. */
  total: number;
}

const appliedOf = (code: PromoCodeRecord, price: number): AppliedPromo => {
  const discount = discountOf(code, price);
  return {
    promoCodeId: code.id,
    code: code.code,
    percentOff: code.percentOff,
    amountOff: code.amountOff,
    duration: code.duration,
    durationMonths: code.durationMonths,
    amountBefore: price,
    discount,
    total: price - discount,
  };
};

/**
 * The provider charges `total` for a checkout made with a code (its rounding of the discount differs from ours):
 * the transaction, its note of the code and the redemption say that figure, in one database transaction.
 */
export async function keepProviderTotal(deps: PromoCodesDeps, transactionId: string, total: number): Promise<void> {
  const { repo, clock } = deps;
  await deps.db.transaction((trx) => repo.setDiscountedTotal(transactionId, total, clock(), trx));
}

/** What the code does to the plan's price for this customer now (no use is taken). */
export async function quotePromo(
  deps: PromoCodesDeps,
  userId: string,
  plan: PlanRecord,
  promoCode: string | undefined,
  options: { referral?: boolean } = {},
): Promise<Omit<CheckoutQuote, 'credit' | 'bonusDays'>> {
  const { repo, clock } = deps;
  const { currency } = await deps.settings.getAppSettings();
  const base = { planId: plan.id, currency, amount: plan.price };
  if (!promoCode) return { ...base, total: plan.price, discount: 0, promo: null };
  const code = await repo.findByKey(lookupKey(promoCode, options.referral));
  if (!code) throw promoInvalid('not_found');
  const refusal = refusalOf(code, plan, currency, clock()) ?? usesRefusal(code, await repo.usesHeld(code.id, userId));
  if (refusal) throw promoInvalid(refusal);
  const applied = appliedOf(code, plan.price);
  const uncharged = chargeRefusal(applied.total);
  if (uncharged) throw promoInvalid(uncharged);
  return {
    ...base,
    total: applied.total,
    discount: applied.discount,
    promo: {
      code: code.code,
      duration: code.duration,
      durationMonths: code.durationMonths,
      percentOff: code.percentOff,
      amountOff: code.amountOff,
      ...(code.referral ? { referral: true as const } : {}),
    },
  };
}

/**
 * The referral programme's code for a first-payment discount of `percent` %, made the first time it is needed:
 * once per customer, every plan, no end. Its key cannot be typed; checkout applies it by itself (`referral`).
 */
export async function referralCode(deps: PromoCodesDeps, percent: number): Promise<string> {
  const { repo, clock } = deps;
  const code = `REFERRAL-${percent}`;
  const codeKey = `${REFERRAL_KEY_PREFIX}${code}`;
  if (await repo.codeKeyTaken(codeKey)) return code;
  await repo
    .insert(
      {
        id: randomUUID(),
        code,
        codeKey,
        percentOff: percent,
        amountOff: null,
        currency: null,
        duration: 'once',
        durationMonths: null,
        planIds: null,
        maxRedemptions: null,
        oncePerCustomer: true,
        startsAt: null,
        endsAt: null,
        createdBy: null,
      },
      clock(),
    )
    .catch(async (err: unknown) => {
      // Made by another checkout at the same moment: that one is the code.
      if (!(await repo.codeKeyTaken(codeKey))) throw err;
    });
  return code;
}

/** A checkout made with a code, as `redeemPromo` takes it. */
export interface PromoOrder {
  promoCode: string;
  referral?: boolean;
  userId: string;
  plan: PlanRecord;
  currency: string;
  transactionId: string;
  subscriptionId: string;
}

/**
 * Takes one use of the code for a checkout, in the checkout's own database transaction (`trx`): the code's
 * row is held while its uses are counted and the redemption is written, so two customers racing for the
 * last use cannot both have it. `writeCheckout` writes the checkout's rows for the discounted price in
 * between (the redemption names its transaction). Throws `promo_invalid` with the reason.
 */
export async function redeemPromo(
  deps: PromoCodesDeps,
  trx: Db,
  order: PromoOrder,
  writeCheckout: (applied: AppliedPromo) => Promise<void>,
): Promise<AppliedPromo> {
  const { repo, clock } = deps;
  const code = await repo.findByKeyForUpdate(lookupKey(order.promoCode, order.referral), trx);
  if (!code) throw promoInvalid('not_found');
  const now = clock();
  const refusal = refusalOf(code, order.plan, order.currency, now) ?? usesRefusal(code, await repo.usesHeld(code.id, order.userId, trx));
  if (refusal) throw promoInvalid(refusal);
  const applied = appliedOf(code, order.plan.price);
  const uncharged = chargeRefusal(applied.total);
  if (uncharged) throw promoInvalid(uncharged);
  await writeCheckout(applied);
  await repo.insertRedemption(
    {
      id: randomUUID(),
      promoCodeId: code.id,
      userId: order.userId,
      transactionId: order.transactionId,
      subscriptionId: order.subscriptionId,
      amountBefore: applied.amountBefore,
      discount: applied.discount,
      currency: order.currency,
    },
    now,
    trx,
  );
  await deps.audit.record(
    {
      actorId: order.userId,
      actorEmail: null,
      action: 'promo_code.redeem',
      targetType: 'promo_code',
      targetId: code.id,
      details: {
        code: code.code,
        transactionId: order.transactionId,
        planId: order.plan.id,
        amountBefore: applied.amountBefore,
        discount: applied.discount,
        currency: order.currency,
      },
      now,
    },
    trx,
  );
  return applied;
}
