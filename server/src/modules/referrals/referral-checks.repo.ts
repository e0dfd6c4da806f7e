import { PROVIDER_BALANCE_NOTE } from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';
import { LEDGER } from '../credit/index.js';

/**
 * What the referral rules look up elsewhere: a customer's subscriptions and payments, and the signs that a
 * referrer and the customer they brought are one person (a shared card, device or sign-in address).
 */
export function referralCheckRows(db: Db) {
  return {
    /** The user's newest auto-renewing subscription that still renews at a provider, if any. */
    async liveRecurringSubscriptionId(userId: string): Promise<string | undefined> {
      const row = await db('subscriptions')
        .select('id')
        .where({ user_id: userId, billing: 'recurring', cancel_at_period_end: false })
        .whereIn('status', ['active', 'past_due'])
        .whereNotNull('provider_subscription_id')
        .orderBy('created_at', 'desc')
        .first();
      return row?.id as string | undefined;
    },

    /** Users with credit available (or a move not confirmed) and an auto-renewing plan to spend it on. */
    async usersWithCreditToMove(now: Date): Promise<string[]> {
      const rows = await db(`${LEDGER} as c`)
        .whereExists(
          db('subscriptions as s')
            .select(db.raw('1'))
            .whereRaw('s.user_id = c.user_id')
            .where({ 's.billing': 'recurring', 's.cancel_at_period_end': false })
            .whereIn('s.status', ['active', 'past_due'])
            .whereNotNull('s.provider_subscription_id'),
        )
        .groupBy('c.user_id')
        .select('c.user_id')
        .havingRaw(
          'sum(case when c.available_at <= ? then c.amount else 0 end) > 0 or sum(case when c.provider_ref is null and c.note = ? then 1 else 0 end) > 0',
          [now, PROVIDER_BALANCE_NOTE],
        );
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
        .where('aa.user_id', a)
        .where('ab.user_id', b)
        .select('da.id')
        .first();
      return row !== undefined;
    },

    /** Sign-ins (sessions started) of a user since `since`, with the address each came from. */
    async signInAddresses(userId: string, since: Date, trx: Db): Promise<Array<{ ip: string; at: Date }>> {
      const rows = await trx('sessions').select('ip', 'created_at').where({ user_id: userId }).whereNotNull('ip').where('created_at', '>=', since);
      return rows.map((row) => ({ ip: row.ip as string, at: toDate(row.created_at) }));
    },

    /** The referred customer's paid payments (for a released referral: what it would have earned). */
    async paidTransactionsOf(userId: string, trx: Db): Promise<Array<{ id: string; amount: number; currency: string; paidAt: Date }>> {
      const rows = await trx('transactions')
        .select('id', 'amount', 'currency', 'updated_at', 'created_at')
        .where({ user_id: userId, status: 'succeeded' })
        .orderBy('created_at', 'asc');
      return rows.map((row) => ({
        id: row.id as string,
        amount: Number(row.amount),
        currency: row.currency as string,
        paidAt: toDate(row.updated_at ?? row.created_at),
      }));
    },

    /** Whether the user has an order that is paid, being paid or was paid (any amount, a gift's or a free one's too). */
    async orderedBefore(userId: string): Promise<boolean> {
      const row = await db('transactions')
        .select('id')
        .where({ user_id: userId })
        .whereIn('status', ['pending', 'succeeded', 'refunded', 'disputed', 'needs_review'])
        .first();
      return row !== undefined;
    },

    /** Whether the user has a paid payment other than `exceptId` (paid, refunded or disputed: money that moved). */
    async paidBefore(userId: string, exceptId: string, trx: Db): Promise<boolean> {
      const row = await trx('transactions')
        .select('id')
        .where({ user_id: userId })
        .whereIn('status', ['succeeded', 'refunded', 'disputed'])
        .whereNot({ id: exceptId })
        .where('amount', '>', 0)
        .first();
      return row !== undefined;
    },
  };
}
