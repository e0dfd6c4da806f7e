import { randomUUID } from 'node:crypto';
import { promoCodeKey, type AdminPromoCode, type CreatePromoCodeBody, type UpdatePromoCodeBody } from '../../../../shared/promo-codes.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Actor } from '../users/index.js';
import type { PromoCodesDeps } from './promo-codes-deps.js';
import type { PromoCodeRecord } from './promo-codes.repo.js';

/** The admin's promo codes: the list with how each was used, and making, changing and removing a code. */

const toAdmin = (code: PromoCodeRecord & { used: number; paidCount: number; discountTotal: number }): AdminPromoCode => ({
  id: code.id,
  code: code.code,
  percentOff: code.percentOff,
  amountOff: code.amountOff,
  currency: code.currency,
  duration: code.duration,
  durationMonths: code.durationMonths,
  planIds: code.planIds,
  maxRedemptions: code.maxRedemptions,
  oncePerCustomer: code.oncePerCustomer,
  startsAt: code.startsAt?.toISOString() ?? null,
  endsAt: code.endsAt?.toISOString() ?? null,
  active: code.active,
  referral: code.referral,
  used: code.used,
  paidCount: code.paidCount,
  discountTotal: code.discountTotal,
  createdAt: code.createdAt.toISOString(),
});

const record = (deps: PromoCodesDeps, actor: Actor, action: string, id: string, details: Record<string, unknown>) =>
  deps.audit.record({
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetType: 'promo_code',
    targetId: id,
    details,
    ip: actor.ip ?? null,
    now: deps.clock(),
  });

async function findAdmin(deps: PromoCodesDeps, id: string): Promise<AdminPromoCode> {
  const found = (await deps.repo.listWithUsage()).find((code) => code.id === id);
  if (!found) throw notFound('Promo code not found');
  return toAdmin(found);
}

export async function listPromoCodes(deps: PromoCodesDeps): Promise<AdminPromoCode[]> {
  return (await deps.repo.listWithUsage()).map(toAdmin);
}

export async function createPromoCode(deps: PromoCodesDeps, actor: Actor, body: CreatePromoCodeBody): Promise<AdminPromoCode> {
  const { repo, clock } = deps;
  const codeKey = promoCodeKey(body.code);
  if (await repo.codeKeyTaken(codeKey))
    throw validationFailed({ code: 'A promo code with this name exists already' }, 'A promo code with this name exists already');
  if (body.planIds) {
    const missing = [];
    for (const planId of new Set(body.planIds)) if (!(await deps.plans.findById(planId))) missing.push(planId);
    if (missing.length > 0) throw validationFailed({ planIds: `No such plan: ${missing.join(', ')}` }, `No such plan: ${missing.join(', ')}`);
  }
  const { currency } = await deps.settings.getAppSettings();
  const id = randomUUID();
  await deps.db.transaction(async (trx) => {
    await repo.insert(
      {
        id,
        code: body.code,
        codeKey,
        percentOff: body.percentOff ?? null,
        amountOff: body.amountOff ?? null,
        currency: body.amountOff !== undefined ? currency : null,
        duration: body.duration,
        durationMonths: body.durationMonths ?? null,
        planIds: body.planIds ? [...new Set(body.planIds)] : null,
        maxRedemptions: body.maxRedemptions ?? null,
        oncePerCustomer: body.oncePerCustomer ?? false,
        startsAt: body.startsAt ? new Date(body.startsAt) : null,
        endsAt: body.endsAt ? new Date(body.endsAt) : null,
        createdBy: actor.id,
      },
      clock(),
      trx,
    );
    await deps.audit.record(
      {
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'promo_code.create',
        targetType: 'promo_code',
        targetId: id,
        details: { ...body, ...(body.amountOff !== undefined ? { currency } : {}) },
        ip: actor.ip ?? null,
        now: clock(),
      },
      trx,
    );
  });
  return findAdmin(deps, id);
}

export async function updatePromoCode(deps: PromoCodesDeps, actor: Actor, id: string, body: UpdatePromoCodeBody): Promise<AdminPromoCode> {
  const { repo, clock } = deps;
  const code = await repo.findById(id);
  if (!code) throw notFound('Promo code not found');
  const endsAt = body.endsAt === undefined ? undefined : body.endsAt === null ? null : new Date(body.endsAt);
  if (endsAt && code.startsAt && endsAt <= code.startsAt) throw validationFailed({ endsAt: 'The end comes after the start' }, 'The end comes after the start');
  await repo.update(id, { active: body.active, maxRedemptions: body.maxRedemptions, endsAt }, clock());
  await record(deps, actor, 'promo_code.update', id, { code: code.code, ...body });
  return findAdmin(deps, id);
}

/** A code nobody has used goes; one with redemptions stays for the records (switch it off instead). */
export async function removePromoCode(deps: PromoCodesDeps, actor: Actor, id: string): Promise<void> {
  const { repo } = deps;
  const code = await repo.findById(id);
  if (!code) throw notFound('Promo code not found');
  if (await repo.hasRedemptions(id))
    throw new AppError(409, 'promo_code_used', 'This code has been used, so it is kept for the records: switch it off instead.');
  await repo.delete(id);
  await record(deps, actor, 'promo_code.delete', id, { code: code.code });
}
