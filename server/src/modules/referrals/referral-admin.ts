import type { AdminReferralsPage, AdminReferralsQuery, ReferralSettings, UpdateReferralSettingsBody } from '../../../../shared/referrals.js';
import { AppError, notFound } from '../../errors.js';
import type { Actor } from '../users/index.js';
import { getReferralSettings, type ReferralsDeps } from './referrals-deps.js';

/** The admin's side of the referral programme: its settings, the list of referrals, and releasing or voiding one. */

const TOP_REFERRERS = 10;

export async function updateReferralSettings(deps: ReferralsDeps, actor: Actor, body: UpdateReferralSettingsBody): Promise<ReferralSettings> {
  const { repo, clock } = deps;
  const { currency } = await deps.settings.getAppSettings();
  const saved: ReferralSettings = { ...body, reward: body.reward.kind === 'fixed' ? { ...body.reward, currency } : body.reward };
  const now = clock();
  await repo.saveSettings(saved, now);
  await deps.audit.record({
    actorId: actor.id,
    actorEmail: actor.email,
    action: 'referral.settings_updated',
    targetType: 'settings',
    targetId: 'referral_programme',
    details: { ...saved },
    ip: actor.ip ?? null,
    now,
  });
  return saved;
}

export async function adminReferralsPage(deps: ReferralsDeps, query: AdminReferralsQuery): Promise<AdminReferralsPage> {
  const { repo } = deps;
  const [settings, referrals, top, counts] = await Promise.all([
    getReferralSettings(deps),
    repo.list({ status: query.status, limit: query.limit, before: query.before ? new Date(query.before) : undefined }),
    repo.top(TOP_REFERRERS),
    repo.countsByStatus(),
  ]);
  return { settings, referrals, top, counts };
}

/**
 * A held (or void) referral released: it earns from now on without the checks, and what its paid payments would
 * have earned is written now (maturing when it would have, at once if the window has passed): earned for a
 * payment that earned nothing, given back for one whose reward the hold took back.
 */
export async function releaseReferral(deps: ReferralsDeps, actor: Actor, id: string): Promise<void> {
  const { db, repo, rewards, clock } = deps;
  const now = clock();
  await db.transaction(async (trx) => {
    const referral = await repo.findForUpdate(id, trx);
    if (!referral) throw notFound('Referral not found');
    if (referral.status === 'active' || referral.status === 'released') throw new AppError(409, 'referral_not_held', 'This referral is not held.');
    await repo.decide(id, 'released', actor.id ?? actor.email ?? 'system', now, trx);
    const released = { ...referral, status: 'released' as const };
    const payments = await repo.paidTransactionsOf(referral.referredId, trx);
    const credits = await repo.creditsOfReferral(id, trx);
    for (const [index, payment] of payments.entries()) {
      const earnedBefore = credits.filter((credit) => credit.transactionId === payment.id);
      if (earnedBefore.length > 0) {
        await rewards.giveBack(released, earnedBefore, now, trx);
        continue;
      }
      await rewards.earn({ ...released, firstPaidAt: released.firstPaidAt ?? payments[0]!.paidAt }, payment, now, trx, { first: index === 0 });
    }
    await deps.audit.record(
      {
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'referral.released',
        targetType: 'referral',
        targetId: id,
        details: { was: referral.status, reason: referral.holdReason },
        ip: actor.ip ?? null,
        now,
      },
      trx,
    );
  });
}

/** A referral voided: it earns nothing more, and what it earned that is still pending is cancelled. */
export async function voidReferral(deps: ReferralsDeps, actor: Actor, id: string): Promise<void> {
  const { db, repo, rewards, clock } = deps;
  const now = clock();
  await db.transaction(async (trx) => {
    const referral = await repo.findForUpdate(id, trx);
    if (!referral) throw notFound('Referral not found');
    if (referral.status === 'void') throw new AppError(409, 'referral_void', 'This referral is already void.');
    await repo.decide(id, 'void', actor.id ?? actor.email ?? 'system', now, trx);
    for (const payment of await repo.paidTransactionsOf(referral.referredId, trx)) {
      await rewards.cancelPending(payment.id, 'voided', now, trx);
    }
    await deps.audit.record(
      {
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'referral.voided',
        targetType: 'referral',
        targetId: id,
        details: { was: referral.status, reason: referral.holdReason },
        ip: actor.ip ?? null,
        now,
      },
      trx,
    );
  });
}
