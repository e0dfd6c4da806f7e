import { randomUUID } from 'node:crypto';
import {
  PROMO_MESSAGES,
  promoCodeKey,
  type AdminPromoCode,
  type CheckoutQuote,
  type CreatePromoCodeBody,
  type PromoInvalidReason,
  type UpdatePromoCodeBody,
} from '../../../../shared/promo-codes.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/audit.repo.js';
import type { PlanRecord, PlansRepo } from '../plans/plans.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { Actor } from '../users/users.service.js';
import { REFERRAL_KEY_PREFIX, type PromoCodeRecord, type PromoCodesRepo } from './promo-codes.repo.js';
import { discountOf, refusalOf, usesRefusal } from './promo-discount.js';

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

const toAdmin = (code: PromoCodeRecord & { used: number; paidCount: number; discountTotal: number }): AdminPromoCode => ({
  id: code.id, code: code.code, percentOff: code.percentOff, amountOff: code.amountOff, currency: code.currency, duration: code.duration,
  durationMonths: code.durationMonths, planIds: code.planIds, maxRedemptions: code.maxRedemptions, oncePerCustomer: code.oncePerCustomer,
  startsAt: code.startsAt?.toISOString() ?? null, endsAt: code.endsAt?.toISOString() ?? null, active: code.active, referral: code.referral,
  used: code.used, paidCount: code.paidCount, discountTotal: code.discountTotal, createdAt: code.createdAt.toISOString(),
});

const appliedOf = (code: PromoCodeRecord, price: number): AppliedPromo => {
  const discount = discountOf(code, price);
  return {
    promoCodeId: code.id, code: code.code, percentOff: code.percentOff, amountOff: code.amountOff, duration: code.duration, durationMonths: code.durationMonths,
    amountBefore: price, discount, total: price - discount,
  };
};

/** The admin's promo codes, and the one question checkout asks: what does this code do to this plan for this customer. */
export function createPromoCodesService(deps: { db: Db; repo: PromoCodesRepo; plans: PlansRepo; settings: SettingsService; audit: AuditRepo; clock: Clock }) {
  const { repo, clock } = deps;
  const record = (actor: Actor, action: string, id: string, details: Record<string, unknown>) =>
    deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action, targetType: 'promo_code', targetId: id, details, ip: actor.ip ?? null, now: clock() });

  async function findAdmin(id: string): Promise<AdminPromoCode> {
    const found = (await repo.listWithUsage()).find((code) => code.id === id);
    if (!found) throw notFound('Promo code not found');
    return toAdmin(found);
  }

  return {
    async list(): Promise<AdminPromoCode[]> {
      return (await repo.listWithUsage()).map(toAdmin);
    },

    async create(actor: Actor, body: CreatePromoCodeBody): Promise<AdminPromoCode> {
      const codeKey = promoCodeKey(body.code);
      if (await repo.codeKeyTaken(codeKey)) throw validationFailed({ code: 'A promo code with this name exists already' }, 'A promo code with this name exists already');
      if (body.planIds) {
        const missing = [];
        for (const planId of new Set(body.planIds)) if (!(await deps.plans.findById(planId))) missing.push(planId);
        if (missing.length > 0) throw validationFailed({ planIds: `No such plan: ${missing.join(', ')}` }, `No such plan: ${missing.join(', ')}`);
      }
      const { currency } = await deps.settings.getAppSettings();
      const id = randomUUID();
      await deps.db.transaction(async (trx) => {
        await repo.insert({
          id, code: body.code, codeKey, percentOff: body.percentOff ?? null, amountOff: body.amountOff ?? null, currency: body.amountOff !== undefined ? currency : null,
          duration: body.duration, durationMonths: body.durationMonths ?? null, planIds: body.planIds ? [...new Set(body.planIds)] : null,
          maxRedemptions: body.maxRedemptions ?? null, oncePerCustomer: body.oncePerCustomer ?? false,
          startsAt: body.startsAt ? new Date(body.startsAt) : null, endsAt: body.endsAt ? new Date(body.endsAt) : null, createdBy: actor.id,
        }, clock(), trx);
        await deps.audit.record({
          actorId: actor.id, actorEmail: actor.email, action: 'promo_code.create', targetType: 'promo_code', targetId: id,
          details: { ...body, ...(body.amountOff !== undefined ? { currency } : {}) }, ip: actor.ip ?? null, now: clock(),
        }, trx);
      });
      return findAdmin(id);
    },

    async update(actor: Actor, id: string, body: UpdatePromoCodeBody): Promise<AdminPromoCode> {
      const code = await repo.findById(id);
      if (!code) throw notFound('Promo code not found');
      const endsAt = body.endsAt === undefined ? undefined : body.endsAt === null ? null : new Date(body.endsAt);
      if (endsAt && code.startsAt && endsAt <= code.startsAt) throw validationFailed({ endsAt: 'The end comes after the start' }, 'The end comes after the start');
      await repo.update(id, { active: body.active, maxRedemptions: body.maxRedemptions, endsAt }, clock());
      await record(actor, 'promo_code.update', id, { code: code.code, ...body });
      return findAdmin(id);
    },

    /** A code nobody has used goes; one with redemptions stays for the records (switch it off instead). */
    async remove(actor: Actor, id: string): Promise<void> {
      const code = await repo.findById(id);
      if (!code) throw notFound('Promo code not found');
      if (await repo.hasRedemptions(id)) throw new AppError(409, 'promo_code_used', 'This code has been used, so it is kept for the records: switch it off instead.');
      await repo.delete(id);
      await record(actor, 'promo_code.delete', id, { code: code.code });
    },

    /**
     * The provider charges `total` for a checkout made with a code (its rounding of the discount differs from ours):
     * the transaction, its note of the code and the redemption say that figure, in one database transaction.
     */
    async keepProviderTotal(transactionId: string, total: number): Promise<void> {
      await deps.db.transaction((trx) => repo.setDiscountedTotal(transactionId, total, clock(), trx));
    },

    /** What the code does to the plan's price for this customer now (no use is taken). */
    async quote(userId: string, plan: PlanRecord, promoCode: string | undefined, options: { referral?: boolean } = {}): Promise<Omit<CheckoutQuote, 'credit' | 'bonusDays'>> {
      const { currency } = await deps.settings.getAppSettings();
      const base = { planId: plan.id, currency, amount: plan.price };
      if (!promoCode) return { ...base, total: plan.price, discount: 0, promo: null };
      const code = await repo.findByKey(lookupKey(promoCode, options.referral));
      if (!code) throw promoInvalid('not_found');
      const refusal = refusalOf(code, plan, currency, clock()) ?? usesRefusal(code, await repo.usesHeld(code.id, userId));
      if (refusal) throw promoInvalid(refusal);
      const applied = appliedOf(code, plan.price);
      return {
        ...base, total: applied.total, discount: applied.discount,
        promo: {
          code: code.code, duration: code.duration, durationMonths: code.durationMonths, percentOff: code.percentOff, amountOff: code.amountOff,
          ...(code.referral ? { referral: true as const } : {}),
        },
      };
    },

    /**
     * The referral programme's code for a first-payment discount of `percent` %, made the first time it is needed:
     * once per customer, every plan, no end. Its key cannot be typed; checkout applies it by itself (`referral`).
     */
    async referralCode(percent: number): Promise<string> {
      const code = `REFERRAL-${percent}`;
      const codeKey = `${REFERRAL_KEY_PREFIX}${code}`;
      if (await repo.codeKeyTaken(codeKey)) return code;
      await repo.insert({
        id: randomUUID(), code, codeKey, percentOff: percent, amountOff: null, currency: null, duration: 'once', durationMonths: null, planIds: null,
        maxRedemptions: null, oncePerCustomer: true, startsAt: null, endsAt: null, createdBy: null,
      }, clock()).catch(async (err: unknown) => {
        // Made by another checkout at the same moment: that one is the code.
        if (!(await repo.codeKeyTaken(codeKey))) throw err;
      });
      return code;
    },

    /**
     * Takes one use of the code for a checkout, in the checkout's own database transaction (`trx`): the code's
     * row is held while its uses are counted and the redemption is written, so two customers racing for the
     * last use cannot both have it. `writeCheckout` writes the checkout's rows for the discounted price in
     * between (the redemption names its transaction). Throws `promo_invalid` with the reason.
     */
    async redeem(
      trx: Db,
      order: { promoCode: string; referral?: boolean; userId: string; plan: PlanRecord; currency: string; transactionId: string; subscriptionId: string },
      writeCheckout: (applied: AppliedPromo) => Promise<void>,
    ): Promise<AppliedPromo> {
      const code = await repo.findByKeyForUpdate(lookupKey(order.promoCode, order.referral), trx);
      if (!code) throw promoInvalid('not_found');
      const now = clock();
      const refusal = refusalOf(code, order.plan, order.currency, now) ?? usesRefusal(code, await repo.usesHeld(code.id, order.userId, trx));
      if (refusal) throw promoInvalid(refusal);
      const applied = appliedOf(code, order.plan.price);
      await writeCheckout(applied);
      await repo.insertRedemption({
        id: randomUUID(), promoCodeId: code.id, userId: order.userId, transactionId: order.transactionId, subscriptionId: order.subscriptionId,
        amountBefore: applied.amountBefore, discount: applied.discount, currency: order.currency,
      }, now, trx);
      await deps.audit.record({
        actorId: order.userId, actorEmail: null, action: 'promo_code.redeem', targetType: 'promo_code', targetId: code.id,
        details: { code: code.code, transactionId: order.transactionId, planId: order.plan.id, amountBefore: applied.amountBefore, discount: applied.discount, currency: order.currency }, now,
      }, trx);
      return applied;
    },
  };
}

export type PromoCodesService = ReturnType<typeof createPromoCodesService>;
