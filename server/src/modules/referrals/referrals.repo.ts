import {
  PROVIDER_BALANCE_NOTE,
  type AdminReferral,
  type CreditMovement,
  REFERRAL_CREDIT_KINDS,
  type ReferralCreditKind,
  type ReferralHoldReason,
  type ReferralSettings,
  type ReferralStatus,
  type ReferralTerms,
  type TopReferrer,
} from '../../../../shared/referrals.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { parseJson, toDate, toDateOrNull, toJson } from '../../db/values.js';
import { createWalletLedgerRepo, LEDGER } from '../wallet/wallet-ledger.repo.js';

const SETTINGS_ID = 'referral_programme';

export interface ReferralRecord {
  id: string;
  referrerId: string;
  referredId: string;
  code: string;
  status: ReferralStatus;
  holdReason: ReferralHoldReason | null;
  terms: ReferralTerms;
  firstPaidAt: Date | null;
  createdAt: Date;
}

export type { CreditRow, NewCredit } from '../wallet/wallet-ledger.repo.js';

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

/** Referral links, referrals and the referrers' credit ledger. */
export function createReferralsRepo(db: Db) {
  const lockable = dialectOf(db) === 'postgres';
  const ledger = createWalletLedgerRepo(db);

  return {
    ...ledger,

    /** The latest movements, for the referrals page (the wallet page shows them all, with its own kinds). */
    async movements(userId: string, limit: number): Promise<CreditMovement[]> {
      return (await ledger.latest(userId, limit, REFERRAL_CREDIT_KINDS)).map((row) => ({
        id: String(row.id), kind: row.kind as ReferralCreditKind, amount: row.amount, currency: row.currency, availableAt: row.availableAt.toISOString(), createdAt: row.createdAt.toISOString(), note: row.note ?? null,
      }));
    },

    async getSettings(): Promise<Partial<ReferralSettings>> {
      const row = await db('settings').select('value').where({ id: SETTINGS_ID }).first();
      return parseJson<Partial<ReferralSettings>>(row?.value, {});
    },

    async saveSettings(value: ReferralSettings, now: Date): Promise<void> {
      await db('settings').insert({ id: SETTINGS_ID, value: toJson(value), updated_at: now }).onConflict('id').merge(['value', 'updated_at']);
    },

    async findLinkCode(userId: string): Promise<string | undefined> {
      const row = await db('referral_links').select('code').where({ user_id: userId }).first();
      return row?.code as string | undefined;
    },

    /** Keeps `code` as the user's link unless they have one (or the code is taken): true when it was kept. */
    async insertLink(userId: string, code: string, now: Date): Promise<boolean> {
      const inserted = await db('referral_links').insert({ user_id: userId, code, created_at: now }).onConflict().ignore().returning('user_id');
      return inserted.length > 0;
    },

    async findReferrerByCode(code: string): Promise<{ userId: string; code: string } | undefined> {
      const row = await db('referral_links').select('user_id', 'code').whereRaw('upper(code) = ?', [code.toUpperCase()]).first();
      return row && { userId: row.user_id as string, code: row.code as string };
    },

    /** The referral of a new customer, once (a second for the same customer adds nothing): true when written. */
    async insertReferral(referral: { id: string; referrerId: string; referredId: string; code: string; terms: ReferralTerms; signupIp: string | null; status: ReferralStatus; holdReason: ReferralHoldReason | null }, now: Date, trx: Db = db): Promise<boolean> {
      const inserted = await trx('referrals').insert({
        id: referral.id, referrer_id: referral.referrerId, referred_id: referral.referredId, code: referral.code, status: referral.status,
        hold_reason: referral.holdReason, terms: toJson(referral.terms), signup_ip: referral.signupIp, created_at: now,
      }).onConflict('referred_id').ignore().returning('id');
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

    async setFirstPaid(id: string, at: Date, trx: Db): Promise<void> {
      await trx('referrals').where({ id }).whereNull('first_paid_at').update({ first_paid_at: at });
    },

    /** How many customers the user brought, and how many of them have paid. */
    async countsOf(referrerId: string): Promise<{ signedUp: number; paid: number }> {
      const row = await db('referrals').where({ referrer_id: referrerId })
        .select(db.raw('count(*) as signed_up'), db.raw('count(first_paid_at) as paid')).first();
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
        .orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(query.limit);
      const earned = await earnedOf(rows.map((row) => row.id as string));
      return rows.map((row) => {
        const referral = toReferral(row);
        return {
          id: referral.id,
          referrer: { id: referral.referrerId, email: row.referrer_email as string },
          referred: { id: referral.referredId, email: row.referred_email as string },
          status: referral.status, holdReason: referral.holdReason, createdAt: referral.createdAt.toISOString(),
          firstPaidAt: referral.firstPaidAt?.toISOString() ?? null, earned: earned.get(referral.id) ?? [],
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
      const rows = await db('referrals as r').join('user_profiles as u', 'u.id', 'r.referrer_id')
        .groupBy('r.referrer_id', 'u.email')
        .select('r.referrer_id', 'u.email')
        .select(db.raw('count(*) as signed_up'), db.raw('count(r.first_paid_at) as paid'), db.raw("sum(case when r.status = 'held' then 1 else 0 end) as held"))
        .orderBy([{ column: 'paid', order: 'desc' }, { column: 'signed_up', order: 'desc' }, { column: 'u.email', order: 'asc' }])
        .limit(limit);
      const ids = rows.map((row) => row.referrer_id as string);
      const earnedRows: Array<Record<string, unknown>> = ids.length === 0 ? [] : await db(LEDGER).whereIn('user_id', ids).whereIn('kind', ['earned', 'cancelled', 'reinstated'])
        .groupBy('user_id', 'currency').select('user_id', 'currency', db.raw('sum(amount) as amount'));
      return rows.map((row) => ({
        user: { id: row.referrer_id as string, email: row.email as string },
        signedUp: Number(row.signed_up), paid: Number(row.paid), held: Number(row.held),
        earned: perCurrency(earnedRows.filter((earned) => earned.user_id === row.referrer_id)),
      }));
    },

    /** The user's newest auto-renewing subscription that still renews at a provider, if any. */
    async liveRecurringSubscriptionId(userId: string): Promise<string | undefined> {
      const row = await db('subscriptions').select('id').where({ user_id: userId, billing: 'recurring', cancel_at_period_end: false })
        .whereIn('status', ['active', 'past_due']).whereNotNull('provider_subscription_id').orderBy('created_at', 'desc').first();
      return row?.id as string | undefined;
    },

    /** Users with credit available (or a move not confirmed) and an auto-renewing plan to spend it on. */
    async usersWithCreditToMove(now: Date): Promise<string[]> {
      const rows = await db(`${LEDGER} as c`)
        .whereExists(db('subscriptions as s').select(db.raw('1')).whereRaw('s.user_id = c.user_id').where({ 's.billing': 'recurring', 's.cancel_at_period_end': false })
          .whereIn('s.status', ['active', 'past_due']).whereNotNull('s.provider_subscription_id'))
        .groupBy('c.user_id').select('c.user_id')
        .havingRaw('sum(case when c.available_at <= ? then c.amount else 0 end) > 0 or sum(case when c.provider_ref is null and c.note = ? then 1 else 0 end) > 0', [now, PROVIDER_BALANCE_NOTE]);
      return rows.map((row) => row.user_id as string);
    },

    /** Whether the referrer ever paid with the card a payment was made with (its fingerprint). */
    async referrerUsedCard(referrerId: string, fingerprint: string, trx: Db): Promise<boolean> {
      const row = await trx('transactions').select('id').where({ user_id: referrerId, card_fingerprint: fingerprint }).first();
      return row !== undefined;
    },

    /** Whether a VPN client announced the same device id (`x-hwid`) on an account of each of the two users. */
    async shareDevice(a: string, b: string, trx: Db): Promise<boolean> {
      const row = await trx('account_devices as da')
        .join('vpn_accounts as aa', 'aa.id', 'da.vpn_account_id')
        .join('account_devices as db', 'db.hwid', 'da.hwid')
        .join('vpn_accounts as ab', 'ab.id', 'db.vpn_account_id')
        .where('aa.user_id', a).where('ab.user_id', b)
        .select('da.id').first();
      return row !== undefined;
    },

    /** Sign-ins (sessions started) of a user since `since`, with the address each came from. */
    async signInAddresses(userId: string, since: Date, trx: Db): Promise<Array<{ ip: string; at: Date }>> {
      const rows = await trx('sessions').select('ip', 'created_at').where({ user_id: userId }).whereNotNull('ip').where('created_at', '>=', since);
      return rows.map((row) => ({ ip: row.ip as string, at: toDate(row.created_at) }));
    },

    /** The referred customer's paid payments (for a released referral: what it would have earned). */
    async paidTransactionsOf(userId: string, trx: Db): Promise<Array<{ id: string; amount: number; currency: string; paidAt: Date }>> {
      const rows = await trx('transactions').select('id', 'amount', 'currency', 'updated_at', 'created_at').where({ user_id: userId, status: 'succeeded' }).orderBy('created_at', 'asc');
      return rows.map((row) => ({ id: row.id as string, amount: Number(row.amount), currency: row.currency as string, paidAt: toDate(row.updated_at ?? row.created_at) }));
    },

    /** Whether the user has a paid payment other than `exceptId` (paid, refunded or disputed: money that moved). */
    /** Whether the user has an order that is paid, being paid or was paid (any amount, a gift's or a free one's too). */
    async orderedBefore(userId: string): Promise<boolean> {
      const row = await db('transactions').select('id').where({ user_id: userId }).whereIn('status', ['pending', 'succeeded', 'refunded', 'disputed', 'needs_review']).first();
      return row !== undefined;
    },

    async paidBefore(userId: string, exceptId: string, trx: Db): Promise<boolean> {
      const row = await trx('transactions').select('id').where({ user_id: userId }).whereIn('status', ['succeeded', 'refunded', 'disputed']).whereNot({ id: exceptId }).where('amount', '>', 0).first();
      return row !== undefined;
    },
  };

  async function earnedOf(referralIds: string[]): Promise<Map<string, Array<{ currency: string; amount: number }>>> {
    const map = new Map<string, Array<{ currency: string; amount: number }>>();
    if (referralIds.length === 0) return map;
    const rows: Array<Record<string, unknown>> = await db(LEDGER).whereIn('referral_id', referralIds).whereIn('kind', ['earned', 'cancelled', 'reinstated'])
      .groupBy('referral_id', 'currency').select('referral_id', 'currency', db.raw('sum(amount) as amount'));
    for (const id of referralIds) map.set(id, perCurrency(rows.filter((row) => row.referral_id === id)));
    return map;
  }
}

export type ReferralsRepo = ReturnType<typeof createReferralsRepo>;
