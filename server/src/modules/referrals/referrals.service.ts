import { randomUUID } from 'node:crypto';
import {
  REFERRAL_CODE_PATTERN,
  REFERRAL_PATH,
  type AdminReferralsPage,
  type AdminReferralsQuery,
  type MyReferrals,
  type ReferralSettings,
  type ReferredBenefit,
  type UpdateReferralSettingsBody,
} from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/audit.repo.js';
import type { PromoCodesService } from '../promo-codes/promo-codes.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { Actor } from '../users/users.service.js';
import type { ReferralRewards } from './referral-rewards.js';
import { newReferralCode, settingsOf, termsOf } from './referral-terms.js';
import type { ReferralsRepo } from './referrals.repo.js';

const MOVEMENTS_SHOWN = 20;
const TOP_REFERRERS = 10;

/** The referral programme: its settings, each customer's link and credit, sign-up attribution, and the admin's decisions. */
export function createReferralsService(deps: {
  db: Db; repo: ReferralsRepo; rewards: ReferralRewards; settings: SettingsService; promos: Pick<PromoCodesService, 'referralCode'>; audit: AuditRepo; clock: Clock; publicUrl: URL;
}) {
  const { db, repo, rewards, clock } = deps;

  async function getSettings(): Promise<ReferralSettings> {
    return settingsOf(await repo.getSettings());
  }

  /** The user's link code, made on first use (a code another user has is drawn again). */
  async function linkCode(userId: string): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const found = await repo.findLinkCode(userId);
      if (found) return found;
      await repo.insertLink(userId, newReferralCode(), clock());
    }
    const found = await repo.findLinkCode(userId);
    if (!found) throw new Error(`No referral code could be kept for ${userId}`);
    return found;
  }

  /** What the customer's referral gives their first payment: null when not referred, held or voided, or paid before. */
  async function firstPaymentBenefit(userId: string): Promise<ReferredBenefit | null> {
    const referral = await repo.findByReferred(userId);
    if (!referral || referral.status === 'held' || referral.status === 'void' || referral.terms.referredBenefit.kind === 'none') return null;
    return (await repo.paidBefore(userId, '', db)) ? null : referral.terms.referredBenefit;
  }

  return {
    getSettings,

    async updateSettings(actor: Actor, body: UpdateReferralSettingsBody): Promise<ReferralSettings> {
      const { currency } = await deps.settings.getAppSettings();
      const saved: ReferralSettings = { ...body, reward: body.reward.kind === 'fixed' ? { ...body.reward, currency } : body.reward };
      const now = clock();
      await repo.saveSettings(saved, now);
      await deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action: 'referral.settings_updated', targetType: 'settings', targetId: 'referral_programme', details: { ...saved }, ip: actor.ip ?? null, now });
      return saved;
    },

    async mine(userId: string): Promise<MyReferrals> {
      const settings = await getSettings();
      const code = await linkCode(userId);
      const [counts, credit, movements] = await Promise.all([repo.countsOf(userId), repo.balances(userId, clock()), repo.movements(userId, MOVEMENTS_SHOWN)]);
      return {
        enabled: settings.enabled, code, link: new URL(`${REFERRAL_PATH}${code}`, deps.publicUrl).toString(), terms: termsOf(settings),
        signedUp: counts.signedUp, paid: counts.paid, credit, movements,
      };
    },

    /**
     * The discount code of a customer referred with a first-payment discount who has not paid yet; null for anyone
     * else (not referred, referred with no discount, paid before, or a referral held or voided as the referrer's own).
     */
    async discountCodeFor(userId: string): Promise<string | null> {
      const benefit = await firstPaymentBenefit(userId);
      return benefit?.kind === 'discount' ? deps.promos.referralCode(benefit.percentOff) : null;
    },

    /**
     * The extra days of a customer referred with extra days, for their first order (none is open, paid or being paid:
     * two orders at once, or a free one before, get none); 0 for anyone else.
     */
    async bonusDaysFor(userId: string): Promise<number> {
      const benefit = await firstPaymentBenefit(userId);
      return benefit?.kind === 'days' && !(await repo.orderedBefore(userId)) ? benefit.days : 0;
    },

    /** The referrer a link code names, when the programme runs. */
    async referrerOf(code: string): Promise<string | undefined> {
      if (!REFERRAL_CODE_PATTERN.test(code) || !(await getSettings()).enabled) return undefined;
      return (await repo.findReferrerByCode(code))?.userId;
    },

    /**
     * A customer who just signed up with a referral code: the referral is written with the programme's terms of
     * today, held at once when the two look like one person (same device, or signed in from one address within a day).
     */
    async attribute(referredId: string, code: string, ip: string | null): Promise<void> {
      const settings = await getSettings();
      if (!settings.enabled || !REFERRAL_CODE_PATTERN.test(code)) return;
      const referrer = await repo.findReferrerByCode(code);
      if (!referrer || referrer.userId === referredId) return;
      const now = clock();
      await db.transaction(async (trx) => {
        const id = randomUUID();
        const draft = { id, referrerId: referrer.userId, referredId, code: referrer.code, status: 'active' as const, holdReason: null, terms: termsOf(settings), firstPaidAt: null, createdAt: now };
        const reason = await rewards.relation(draft, null, now, trx);
        const written = await repo.insertReferral({ ...draft, signupIp: ip, status: reason ? 'held' : 'active', holdReason: reason }, now, trx);
        if (!written) return;
        await deps.audit.record({
          actorId: referredId, actorEmail: null, action: 'referral.signed_up', targetType: 'referral', targetId: id,
          details: { referrerId: referrer.userId, code: referrer.code, ...(reason ? { held: reason } : {}) }, ip, now,
        }, trx);
      });
    },

    async adminPage(query: AdminReferralsQuery): Promise<AdminReferralsPage> {
      const [settings, referrals, top, counts] = await Promise.all([
        getSettings(), repo.list({ status: query.status, limit: query.limit, before: query.before ? new Date(query.before) : undefined }), repo.top(TOP_REFERRERS), repo.countsByStatus(),
      ]);
      return { settings, referrals, top, counts };
    },

    /**
     * A held (or void) referral released: it earns from now on without the checks, and what its paid payments would
     * have earned is written now (maturing when it would have, at once if the window has passed).
     */
    async release(actor: Actor, id: string): Promise<void> {
      const now = clock();
      await db.transaction(async (trx) => {
        const referral = await repo.findForUpdate(id, trx);
        if (!referral) throw notFound('Referral not found');
        if (referral.status === 'active' || referral.status === 'released') throw new AppError(409, 'referral_not_held', 'This referral is not held.');
        await repo.decide(id, 'released', actor.id ?? actor.email, now, trx);
        const released = { ...referral, status: 'released' as const };
        const payments = await repo.paidTransactionsOf(referral.referredId, trx);
        for (const [index, payment] of payments.entries()) {
          if ((await repo.creditsOfTransaction(payment.id, trx)).length > 0) continue;
          await rewards.earn({ ...released, firstPaidAt: released.firstPaidAt ?? payments[0]!.paidAt }, payment, now, trx, { first: index === 0 });
        }
        await deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action: 'referral.released', targetType: 'referral', targetId: id, details: { was: referral.status, reason: referral.holdReason }, ip: actor.ip ?? null, now }, trx);
      });
    },

    /** A referral voided: it earns nothing more, and what it earned that is still pending is cancelled. */
    async void(actor: Actor, id: string): Promise<void> {
      const now = clock();
      await db.transaction(async (trx) => {
        const referral = await repo.findForUpdate(id, trx);
        if (!referral) throw notFound('Referral not found');
        if (referral.status === 'void') throw new AppError(409, 'referral_void', 'This referral is already void.');
        await repo.decide(id, 'void', actor.id ?? actor.email, now, trx);
        for (const payment of await repo.paidTransactionsOf(referral.referredId, trx)) {
          await rewards.cancelPending(payment.id, 'voided', now, trx);
        }
        await deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action: 'referral.voided', targetType: 'referral', targetId: id, details: { was: referral.status, reason: referral.holdReason }, ip: actor.ip ?? null, now }, trx);
      });
    },
  };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;
