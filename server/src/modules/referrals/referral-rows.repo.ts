import type { AdminReferral, ReferralHoldReason, ReferralStatus, ReferralTerms, TopReferrer } from '../../../../shared/referrals.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { parseJson, toDate, toDateOrNull, toJson } from '../../db/values.js';
import { LEDGER } from '../credit/index.js';
import type { ReferralRecord } from './referrals.repo.js';

/** The referrals themselves: written at sign-up, held, decided and marked paid; and the admin's list and counts of them. */

const toReferral = (row: Record<string, unknown>): ReferralRecord => ({
  id: row.id as string,
  referrerId: row.referrer_id as string,
  referredId: row.referred_id as string,
  code: row.code as string,
  status: row.status as ReferralStatus,
  holdReason: (row.hold_reason as ReferralHoldReason | null) ?? null,
  terms: parseJson<ReferralTerms>(row.terms, { referredBenefit: { kind: 'none' }, reward: { kind: 'percent', percent: 0, months: 0 }, refundWindowDays: 14 }),
  firstPaidAt: toDateOrNull(row.first_paid_at),
  createdAt: toDate(row.created_at),
});

/** Sums per currency of the rows of a `select currency, sum(amount) … group by currency` (PostgreSQL answers sums as strings). */
const perCurrency = (rows: Array<Record<string, unknown>>) =>
  rows.map((row) => ({ currency: row.currency as string, amount: Number(row.amount) })).filter((row) => row.amount !== 0);

/** What each referral earned its referrer so far, per currency (earned, less cancelled, plus reinstated). */
async function earnedOf(db: Db, referralIds: string[]): Promise<Map<string, Array<{ currency: string; amount: number }>>> {
  const map = new Map<string, Array<{ currency: string; amount: number }>>();
  if (referralIds.length === 0) return map;
  const rows: Array<Record<string, unknown>> = await db(LEDGER)
    .whereIn('referral_id', referralIds)
    .whereIn('kind', ['earned', 'cancelled', 'reinstated'])
    .groupBy('referral_id', 'currency')
    .select('referral_id', 'currency', db.raw('sum(amount) as amount'));
  for (const id of referralIds) map.set(id, perCurrency(rows.filter((row) => row.referral_id === id)));
  return map;
}

/** One movement a referral made (what it earned its referrer, and what was taken from it or given back). */
export interface ReferralCredit {
  id: number;
  userId: string;
  transactionId: string | null;
  kind: 'earned' | 'cancelled' | 'reinstated';
  amount: number;
  currency: string;
  availableAt: Date;
  note: string | null;
}

/** A customer's referral as it is written at sign-up and changes after (held, released or void, first paid). */
export function referralRows(db: Db) {
  const lockable = dialectOf(db) === 'postgres';

  return {
    /** The referral of a new customer, once (a second for the same customer adds nothing): true when written. */
    async insertReferral(
      referral: {
        id: string;
        referrerId: string;
        referredId: string;
        code: string;
        terms: ReferralTerms;
        signupIp: string | null;
        status: ReferralStatus;
        holdReason: ReferralHoldReason | null;
      },
      now: Date,
      trx: Db = db,
    ): Promise<boolean> {
      const inserted = await trx('referrals')
        .insert({
          id: referral.id,
          referrer_id: referral.referrerId,
          referred_id: referral.referredId,
          code: referral.code,
          status: referral.status,
          hold_reason: referral.holdReason,
          terms: toJson(referral.terms),
          signup_ip: referral.signupIp,
          created_at: now,
        })
        .onConflict('referred_id')
        .ignore()
        .returning('id');
      return inserted.length > 0;
    },

    async findByReferred(referredId: string): Promise<ReferralRecord | undefined> {
      const row = await db('referrals').select('*').where({ referred_id: referredId }).first();
      return row && toReferral(row);
    },

    /** The referral that brought `referredId`, its row held until `trx` ends (PostgreSQL). */
    async findByReferredForUpdate(referredId: string, trx: Db): Promise<ReferralRecord | undefined> {
      const query = trx('referrals').select('*').where({ referred_id: referredId });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toReferral(row);
    },

    async findForUpdate(id: string, trx: Db): Promise<ReferralRecord | undefined> {
      const query = trx('referrals').select('*').where({ id });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toReferral(row);
    },

    async hold(id: string, reason: ReferralHoldReason, trx: Db): Promise<void> {
      await trx('referrals').where({ id, status: 'active' }).update({ status: 'held', hold_reason: reason });
    },

    async decide(id: string, status: 'released' | 'void', by: string, now: Date, trx: Db): Promise<void> {
      await trx('referrals').where({ id }).update({ status, decided_by: by, decided_at: now });
    },

    /** The referral's own movements of its referrer's credit (earned, cancelled, reinstated), oldest first. */
    async creditsOfReferral(id: string, trx: Db): Promise<ReferralCredit[]> {
      const rows = await trx(LEDGER)
        .select('id', 'user_id', 'transaction_id', 'kind', 'amount', 'currency', 'available_at', 'note')
        .where({ referral_id: id })
        .whereIn('kind', ['earned', 'cancelled', 'reinstated'])
        .orderBy('id', 'asc');
      return rows.map((row) => ({
        id: Number(row.id),
        userId: row.user_id as string,
        transactionId: (row.transaction_id as string | null) ?? null,
        kind: row.kind as ReferralCredit['kind'],
        amount: Number(row.amount),
        currency: row.currency as string,
        availableAt: toDate(row.available_at),
        note: (row.note as string | null) ?? null,
      }));
    },

    async setFirstPaid(id: string, at: Date, trx: Db): Promise<void> {
      await trx('referrals').where({ id }).whereNull('first_paid_at').update({ first_paid_at: at });
    },
  };
}

/** How many customers a referrer brought, and the admin's views: the list of referrals, counts and the top referrers. */
export function referralAdminRows(db: Db) {
  return {
    /** How many customers the user brought, and how many of them have paid. */
    async countsOf(referrerId: string): Promise<{ signedUp: number; paid: number }> {
      const row = await db('referrals')
        .where({ referrer_id: referrerId })
        .select(db.raw('count(*) as signed_up'), db.raw('count(first_paid_at) as paid'))
        .first();
      return { signedUp: Number(row?.signed_up ?? 0), paid: Number(row?.paid ?? 0) };
    },

    /** The admin's list, newest first (`before`: the page after a created_at), with the users' e-mails and what each earned. */
    async list(query: { status?: ReferralStatus; limit: number; before?: Date }): Promise<AdminReferral[]> {
      const rows: Array<Record<string, unknown>> = await db('referrals as r')
        .join('user_profiles as a', 'a.id', 'r.referrer_id')
        .join('user_profiles as b', 'b.id', 'r.referred_id')
        .select('r.*', 'a.email as referrer_email', 'b.email as referred_email')
        .modify((q) => {
          if (query.status) q.where('r.status', query.status);
          if (query.before) q.where('r.created_at', '<', query.before);
        })
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(query.limit);
      const earned = await earnedOf(
        db,
        rows.map((row) => row.id as string),
      );
      return rows.map((row) => {
        const referral = toReferral(row);
        return {
          id: referral.id,
          referrer: { id: referral.referrerId, email: row.referrer_email as string },
          referred: { id: referral.referredId, email: row.referred_email as string },
          status: referral.status,
          holdReason: referral.holdReason,
          createdAt: referral.createdAt.toISOString(),
          firstPaidAt: referral.firstPaidAt?.toISOString() ?? null,
          earned: earned.get(referral.id) ?? [],
        };
      });
    },

    async countsByStatus(): Promise<Record<ReferralStatus, number>> {
      const rows: Array<{ status: string; n: unknown }> = await db('referrals').groupBy('status').select('status', db.raw('count(*) as n'));
      const counts: Record<ReferralStatus, number> = { active: 0, held: 0, released: 0, void: 0 };
      for (const row of rows) counts[row.status as ReferralStatus] = Number(row.n);
      return counts;
    },

    /** The referrers who brought the most paying customers (then the most sign-ups). */
    async top(limit: number): Promise<TopReferrer[]> {
      const rows = await db('referrals as r')
        .join('user_profiles as u', 'u.id', 'r.referrer_id')
        .groupBy('r.referrer_id', 'u.email')
        .select('r.referrer_id', 'u.email')
        .select(db.raw('count(*) as signed_up'), db.raw('count(r.first_paid_at) as paid'), db.raw("sum(case when r.status = 'held' then 1 else 0 end) as held"))
        .orderBy([
          { column: 'paid', order: 'desc' },
          { column: 'signed_up', order: 'desc' },
          { column: 'u.email', order: 'asc' },
        ])
        .limit(limit);
      const ids = rows.map((row) => row.referrer_id as string);
      const earnedRows: Array<Record<string, unknown>> =
        ids.length === 0
          ? []
          : await db(LEDGER)
              .whereIn('user_id', ids)
              .whereIn('kind', ['earned', 'cancelled', 'reinstated'])
              .groupBy('user_id', 'currency')
              .select('user_id', 'currency', db.raw('sum(amount) as amount'));
      return rows.map((row) => ({
        user: { id: row.referrer_id as string, email: row.email as string },
        signedUp: Number(row.signed_up),
        paid: Number(row.paid),
        held: Number(row.held),
        earned: perCurrency(earnedRows.filter((earned) => earned.user_id === row.referrer_id)),
      }));
    },
  };
}
