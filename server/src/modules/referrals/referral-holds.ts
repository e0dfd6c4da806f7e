import { HELD_NOTE } from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import type { ReferralCredit } from './referral-rows.repo.js';
import type { NewCredit, ReferralRecord, ReferralsRepo } from './referrals.repo.js';

/** What each payment of the referral earned, net (earned, less cancelled, plus reinstated), with its movements. */
function perPayment(credits: ReferralCredit[]): Map<string, ReferralCredit[]> {
  const map = new Map<string, ReferralCredit[]>();
  for (const credit of credits) {
    if (!credit.transactionId) continue;
    map.set(credit.transactionId, [...(map.get(credit.transactionId) ?? []), credit]);
  }
  return map;
}

const netOf = (credits: ReferralCredit[]) => credits.reduce((sum, credit) => sum + credit.amount, 0);

/**
 * A referral found to be one person after it had earned (the same device seen after its first payment): the
 * hold takes back what it earned, by a `cancelled` movement (note `held`) per payment, never by changing a row.
 * Pending credit is taken back whole, maturing when it would have (so it nets out of the pending credit);
 * available credit as far as the referrer still has it (the balance never goes below zero: what they already
 * spent stays spent). Releasing the referral gives back what the hold took, maturing when it would have.
 */
export function referralHoldMoves(deps: { repo: ReferralsRepo; move: (credit: NewCredit, now: Date, trx: Db) => Promise<number> }) {
  const { repo, move } = deps;

  return {
    async takeBack(referral: ReferralRecord, now: Date, trx: Db): Promise<void> {
      const payments = perPayment(await repo.creditsOfReferral(referral.id, trx));
      if (payments.size === 0) return;
      // Whoever spends holds the referrer's row first: what is available is read and taken back in one go.
      await repo.lockUser(referral.referrerId, trx);
      const available = new Map((await repo.balances(referral.referrerId, now, trx)).map((balance) => [balance.currency, balance.available]));
      for (const [transactionId, credits] of payments) {
        const net = netOf(credits);
        const source = credits.find((credit) => credit.kind === 'earned');
        if (net <= 0 || !source) continue;
        const pending = source.availableAt.getTime() > now.getTime();
        const left = available.get(source.currency) ?? 0;
        const amount = pending ? net : Math.min(net, Math.max(0, left));
        if (amount <= 0) continue;
        if (!pending) available.set(source.currency, left - amount);
        await move(
          {
            userId: referral.referrerId,
            referralId: referral.id,
            transactionId,
            kind: 'cancelled',
            amount: -amount,
            currency: source.currency,
            availableAt: pending ? source.availableAt : now,
            note: HELD_NOTE,
          },
          now,
          trx,
        );
      }
    },

    /**
     * Released: what the hold took from the payment and was not given back yet comes back (`reinstated`, note
     * `held`), maturing when it would have (at once if that has passed).
     */
    async giveBack(referral: ReferralRecord, credits: ReferralCredit[], now: Date, trx: Db): Promise<void> {
      const source = credits.find((credit) => credit.kind === 'earned');
      const amount = -netOf(credits.filter((credit) => credit.note === HELD_NOTE));
      if (!source || !source.transactionId || amount <= 0) return;
      const availableAt = source.availableAt.getTime() > now.getTime() ? source.availableAt : now;
      await move(
        {
          userId: referral.referrerId,
          referralId: referral.id,
          transactionId: source.transactionId,
          kind: 'reinstated',
          amount,
          currency: source.currency,
          availableAt,
          note: HELD_NOTE,
        },
        now,
        trx,
      );
    },
  };
}
