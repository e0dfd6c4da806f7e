import type { ReferralHoldReason } from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import type { AuditRepo } from '../audit/index.js';
import type { TransactionRecord, TransactionEvent } from '../orders/index.js';
import { recordCreditMove } from '../credit/index.js';
import type { NewCredit, ReferralRecord, ReferralsRepo } from './referrals.repo.js';
import { DAY_MS } from '../../../../shared/constants.js';
import { maturesAt, rewardFor, signedInTogether } from './referral-terms.js';
import { referralHoldMoves } from './referral-holds.js';

/**
 * The referrer's credit, moved by the payments of the customers they referred, in the same database transaction
 * as each payment's status change (billing.repo calls `onTransition` there, once per change: its conditional
 * update is the exactly-once gate, so a redelivered or racing event moves no credit twice):
 * - paid: the reward is earned, pending until the refund window ends; unless the referral is held or void, or
 *   a check finds the two customers are one person (then the referral is held, what it earned before is taken
 *   back, and it earns nothing until an admin releases it);
 * - refunded or a dispute lost while the reward is pending: cancelled (after the window, the credit stays);
 * - disputed while pending: cancelled; the dispute won: reinstated, maturing when it would have.
 */
export function createReferralRewards(deps: { repo: ReferralsRepo; audit: AuditRepo }) {
  const { repo } = deps;

  const move = (credit: NewCredit, now: Date, trx: Db) => recordCreditMove(deps, credit, now, trx);
  const holds = referralHoldMoves({ repo, move });

  /** The first check that finds the referrer and the customer they referred to be one person, if any. */
  async function relation(referral: ReferralRecord, payment: TransactionRecord | null, now: Date, trx: Db): Promise<ReferralHoldReason | null> {
    if (payment?.cardFingerprint && (await repo.referrerUsedCard(referral.referrerId, payment.cardFingerprint, trx))) return 'same_card';
    if (await repo.shareDevice(referral.referrerId, referral.referredId, trx)) return 'same_device';
    const since = new Date(Math.min(referral.createdAt.getTime(), now.getTime()) - 30 * DAY_MS);
    const [a, b] = await Promise.all([repo.signInAddresses(referral.referrerId, since, trx), repo.signInAddresses(referral.referredId, since, trx)]);
    if (signedInTogether(a, b)) return 'same_address';
    return null;
  }

  async function hold(referral: ReferralRecord, reason: ReferralHoldReason, transactionId: string | null, now: Date, trx: Db): Promise<void> {
    await repo.hold(referral.id, reason, trx);
    // Found only now (the same device seen after a payment had earned): what it earned is taken back.
    await holds.takeBack(referral, now, trx);
    await deps.audit.record(
      { actorId: null, actorEmail: null, action: 'referral.held', targetType: 'referral', targetId: referral.id, details: { reason, transactionId }, now },
      trx,
    );
  }

  /** The reward of one paid payment, written as earned (pending until the window ends, or from `notBefore`). */
  async function earn(
    referral: ReferralRecord,
    payment: { id: string; amount: number; currency: string; paidAt: Date },
    now: Date,
    trx: Db,
    options: { first?: boolean } = {},
  ): Promise<void> {
    const first = options.first ?? !(await repo.paidBefore(referral.referredId, payment.id, trx));
    const firstPaidAt = referral.firstPaidAt ?? payment.paidAt;
    if (!referral.firstPaidAt && payment.amount > 0) await repo.setFirstPaid(referral.id, payment.paidAt, trx);
    const reward = rewardFor(referral.terms, { amount: payment.amount, currency: payment.currency, paidAt: payment.paidAt, first, firstPaidAt });
    if (reward.amount <= 0) return;
    const matures = maturesAt(referral.terms, payment.paidAt);
    await move(
      {
        userId: referral.referrerId,
        referralId: referral.id,
        transactionId: payment.id,
        kind: 'earned',
        amount: reward.amount,
        currency: reward.currency,
        availableAt: matures.getTime() < now.getTime() ? now : matures,
      },
      now,
      trx,
    );
  }

  async function paid(transaction: TransactionRecord, now: Date, trx: Db): Promise<void> {
    const referral = await repo.findByReferredForUpdate(transaction.userId, trx);
    if (!referral || referral.status === 'void' || transaction.amount <= 0) return;
    const reason = referral.status === 'active' ? await relation(referral, transaction, now, trx) : null;
    if (reason) await hold(referral, reason, transaction.id, now, trx);
    if (reason || referral.status === 'held') {
      // Counted as paid (the admin's list, the referrer's figures), earning nothing while held.
      if (!referral.firstPaidAt) await repo.setFirstPaid(referral.id, now, trx);
      return;
    }
    await earn(referral, { id: transaction.id, amount: transaction.amount, currency: transaction.currency, paidAt: now }, now, trx);
  }

  /** Takes back what a payment earned while it is still pending; `note` says why. */
  async function cancelPending(transactionId: string, note: string, now: Date, trx: Db): Promise<void> {
    const credits = await repo.creditsOfTransaction(transactionId, trx);
    const earned = credits.filter((credit) => credit.kind === 'earned' || credit.kind === 'reinstated' || credit.kind === 'cancelled');
    if (earned.length === 0) return;
    const net = earned.reduce((sum, credit) => sum + credit.amount, 0);
    const source = earned.find((credit) => credit.kind === 'earned')!;
    if (net <= 0 || source.availableAt.getTime() <= now.getTime()) return;
    await move(
      {
        userId: source.userId,
        referralId: source.referralId,
        transactionId,
        kind: 'cancelled',
        amount: -net,
        currency: source.currency,
        availableAt: source.availableAt,
        note,
      },
      now,
      trx,
    );
  }

  /** A dispute won: what its opening cancelled comes back, maturing when it would have (at once if that has passed). */
  async function reinstate(transaction: TransactionRecord, now: Date, trx: Db): Promise<void> {
    // The referrer's movements of the payment (not the payer's own credit that it spent).
    const credits = (await repo.creditsOfTransaction(transaction.id, trx)).filter((credit) => credit.referralId !== null);
    const last = credits.at(-1);
    if (!last || last.kind !== 'cancelled' || last.note !== 'disputed') return;
    const availableAt = last.availableAt.getTime() < now.getTime() ? now : last.availableAt;
    await move(
      {
        userId: last.userId,
        referralId: last.referralId,
        transactionId: transaction.id,
        kind: 'reinstated',
        amount: -last.amount,
        currency: last.currency,
        availableAt,
      },
      now,
      trx,
    );
  }

  return {
    /** billing.repo's transition listener. */
    async onTransition(transaction: TransactionRecord, event: TransactionEvent, now: Date, trx: Db): Promise<void> {
      switch (event) {
        case 'paid':
        case 'paid_after_review':
          return paid(transaction, now, trx);
        case 'refunded':
          return cancelPending(transaction.id, 'refunded', now, trx);
        case 'dispute_lost':
          return cancelPending(transaction.id, 'dispute_lost', now, trx);
        case 'disputed':
          return cancelPending(transaction.id, 'disputed', now, trx);
        case 'dispute_won':
          return reinstate(transaction, now, trx);
        default:
          return undefined;
      }
    },

    relation,
    earn,
    cancelPending,
    giveBack: holds.giveBack,
  };
}

export type ReferralRewards = ReturnType<typeof createReferralRewards>;
