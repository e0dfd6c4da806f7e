import { PROVIDER_BALANCE_NOTE, type CreditBalance, type ReferralCreditKind } from '../../../../shared/referrals.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';

/** The one ledger of every customer's money here (migration 037). */
export const LEDGER = 'wallet_movements';

/**
 * What a movement is, as stored: the referral programme's (`earned`, `cancelled`, `reinstated`), money spent
 * (`spent`: on an order, note `purchase`; on a renewal, note `renewal`; moved to the card provider's customer
 * balance, note `provider_balance`) or given back with its order (`restored`), a top-up paid in (`top_up`), a
 * refund paid into the wallet or a top-up taken back (`refund`), and the admin's `adjustment`.
 */
export type LedgerKind = ReferralCreditKind | 'top_up' | 'refund' | 'adjustment' | 'plan_change';

export interface NewCredit {
  userId: string;
  referralId: string | null;
  transactionId: string | null;
  kind: LedgerKind;
  /** Minor units, signed: what the movement adds to the balance. */
  amount: number;
  currency: string;
  /** When it counts as available (an earned reward: after the refund window; anything else: at once). */
  availableAt: Date;
  /** A short machine tag (why it was spent, restored or cancelled). */
  note?: string | null;
  /** The words for the customer and the audit log (an adjustment's reason). */
  memo?: string | null;
}

export interface CreditRow extends NewCredit {
  /** The ledger's own sequence: movements in the order they were written. */
  id: number;
  createdAt: Date;
}

export const toCredit = (row: Record<string, unknown>): CreditRow => ({
  id: Number(row.id),
  userId: row.user_id as string,
  referralId: (row.referral_id as string | null) ?? null,
  transactionId: (row.transaction_id as string | null) ?? null,
  kind: row.kind as LedgerKind,
  amount: Number(row.amount),
  currency: row.currency as string,
  availableAt: toDate(row.available_at),
  note: (row.note as string | null) ?? null,
  memo: (row.memo as string | null) ?? null,
  createdAt: toDate(row.created_at),
});

/** The referral programme's own movements (what a referral earned, net). */
export const REFERRAL_KINDS: readonly LedgerKind[] = ['earned', 'cancelled', 'reinstated'];

/**
 * The wallet's ledger: a row per movement, never updated in place (but for a provider's reference once a move
 * to it is confirmed); a balance is the sum of its rows. Whoever spends holds the user's row first (`lockUser`),
 * so two spenders of one balance queue and the balance never goes below zero.
 */
export function createWalletLedgerRepo(db: Db) {
  const lockable = dialectOf(db) === 'postgres';

  return {
    /** One movement of the ledger; its id (the ledger's sequence). */
    async insertCredit(credit: NewCredit, now: Date, trx: Db): Promise<number> {
      const [inserted] = await trx(LEDGER)
        .insert({
          user_id: credit.userId,
          referral_id: credit.referralId,
          transaction_id: credit.transactionId,
          kind: credit.kind,
          amount: credit.amount,
          currency: credit.currency,
          available_at: credit.availableAt,
          note: credit.note ?? null,
          memo: credit.memo ?? null,
          created_at: now,
        })
        .returning('id');
      return Number(typeof inserted === 'object' ? inserted.id : inserted);
    },

    /** The movements made for one payment (earned on it, cancelled with it, spent on it, paid in by it), oldest first. */
    async creditsOfTransaction(transactionId: string, trx: Db): Promise<CreditRow[]> {
      const rows = await trx(LEDGER).select('*').where({ transaction_id: transactionId }).orderBy('id', 'asc');
      return rows.map(toCredit);
    },

    /** Pending (available later than `now`) and available credit of a user, per currency. */
    async balances(userId: string, now: Date, trx: Db = db): Promise<CreditBalance[]> {
      const rows = await trx(LEDGER)
        .where({ user_id: userId })
        .groupBy('currency')
        .select('currency')
        .select(trx.raw('sum(case when available_at > ? then amount else 0 end) as pending', [now]))
        .select(trx.raw('sum(case when available_at <= ? then amount else 0 end) as available', [now]));
      return rows
        .map((row) => ({ currency: row.currency as string, pending: Number(row.pending), available: Number(row.available) }))
        .filter((row) => row.pending !== 0 || row.available !== 0);
    },

    /** The latest movements of a user, newest first (of these kinds only, when given). */
    async latest(userId: string, limit: number, kinds?: readonly LedgerKind[]): Promise<CreditRow[]> {
      const query = db(LEDGER).select('*').where({ user_id: userId }).orderBy('id', 'desc').limit(limit);
      if (kinds) query.whereIn('kind', kinds);
      return (await query).map(toCredit);
    },

    /** Holds the user's row until `trx` ends (PostgreSQL), so two movements of their money queue one behind the other. */
    async lockUser(userId: string, trx: Db): Promise<void> {
      const query = trx('user_profiles').select('id').where({ id: userId });
      if (lockable) query.forUpdate();
      await query.first();
    },

    /** A move of credit to the provider written but not confirmed sent (a crash or a timeout between the two). */
    async unsentProviderMove(userId: string, trx: Db): Promise<CreditRow | undefined> {
      const row = await trx(LEDGER)
        .select('*')
        .where({ user_id: userId, kind: 'spent', note: PROVIDER_BALANCE_NOTE })
        .whereNull('provider_ref')
        .orderBy('id')
        .first();
      return row && toCredit(row);
    },

    async markSent(id: number, ref: string): Promise<void> {
      await db(LEDGER).where({ id }).whereNull('provider_ref').update({ provider_ref: ref });
    },

    /**
     * What may move to the card provider's customer balance now, in `currency`: what referrals earned (available),
     * less what was moved before, and never more than the balance. Money the customer paid in (top-ups, refunds
     * to the wallet) stays in the wallet for the wallet's own spending.
     */
    async pushableReferralCredit(userId: string, currency: string, now: Date, trx: Db): Promise<number> {
      const row = await trx(LEDGER)
        .where({ user_id: userId, currency })
        .select(trx.raw('sum(case when available_at <= ? then amount else 0 end) as available', [now]))
        .select(
          trx.raw(`sum(case when available_at <= ? and kind in (${REFERRAL_KINDS.map(() => '?').join(', ')}) then amount else 0 end) as earned`, [
            now,
            ...REFERRAL_KINDS,
          ]),
        )
        .select(trx.raw('sum(case when kind = ? and note = ? then amount else 0 end) as pushed', ['spent', PROVIDER_BALANCE_NOTE]))
        .first();
      const available = Number(row?.available ?? 0);
      const referralLeft = Number(row?.earned ?? 0) + Number(row?.pushed ?? 0);
      return Math.max(0, Math.min(available, referralLeft));
    },
  };
}

export type WalletLedgerRepo = ReturnType<typeof createWalletLedgerRepo>;
