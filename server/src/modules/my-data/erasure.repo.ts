import type { Knex } from 'knex';
import { CHECKOUT_SESSION_TTL_SECONDS } from '../billing/index.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { parseJson, toJson } from '../../db/values.js';

/** What stops a customer's own deletion: a charge still to come, or money on its way. */
export type MoneyBlock = 'auto_renew_on' | 'payment_open';
/** ...or a VPN account made since its panel users were removed. */
export type ErasureBlock = MoneyBlock | 'accounts_left';

/** Statuses of a subscription that will be charged again unless auto-renew is turned off (subscription-presenter.ts). */
const RENEWING = ['active', 'past_due'];
/** A refund not settled yet. */
const REFUND_OPEN = ['pending', 'processing'];

/**
 * The rows of one customer's erasure (`DELETE /api/me`): what blocks it, and the erasure itself in one database
 * transaction, with the customer's row locked so a checkout cannot start between the check and the erasure.
 */
export function createErasureRepo(db: Db) {
  return {
    /** The customer's VPN accounts, whose panel users go first. */
    async accountIds(userId: string, trx: Db = db): Promise<string[]> {
      return (await trx('vpn_accounts').where({ user_id: userId }).orderBy('created_at').pluck('id')) as string[];
    },

    /** Why this customer cannot be erased now, if anything stops it. */
    async blockOf(userId: string, now: Date, trx: Db = db): Promise<MoneyBlock | undefined> {
      const renewing = await trx('subscriptions')
        .where({ user_id: userId, billing: 'recurring', cancel_at_period_end: false })
        .whereIn('status', RENEWING)
        .whereNotNull('current_period_end')
        .first('id');
      if (renewing) return 'auto_renew_on';
      // An order is open for its checkout's life; twice that covers a provider's late word on it.
      const openSince = new Date(now.getTime() - 2 * CHECKOUT_SESSION_TTL_SECONDS * 1000);
      const pending = await trx('transactions').where({ user_id: userId, status: 'pending' }).where('created_at', '>', openSince).first('id');
      if (pending) return 'payment_open';
      const refund = await trx('refunds')
        .join('transactions', 'transactions.id', 'refunds.transaction_id')
        .where('transactions.user_id', userId)
        .whereIn('refunds.status', REFUND_OPEN)
        .first('refunds.id');
      return refund ? 'payment_open' : undefined;
    },

    /**
     * Erases the customer's personal data and keeps their payments, subscriptions, wallet ledger and referral rows for
     * the books, tied to a row that no longer says who they were. Answers what blocks it (nothing is changed then),
     * or `erased` (`already` when another request erased them first).
     */
    async erase(
      userId: string,
      opts: { email: string | null; emailHash: string | null; now: Date },
    ): Promise<{ erased: true; already: boolean } | { erased: false; block: ErasureBlock }> {
      return db.transaction(async (trx) => {
        if (!(await lockProfile(trx, userId)) || (await trx('erased_customers').where({ user_id: userId }).first('user_id')))
          return { erased: true, already: true };
        const block = (await this.blockOf(userId, opts.now, trx)) ?? ((await this.accountIds(userId, trx)).length > 0 ? 'accounts_left' : undefined);
        if (block) return { erased: false, block };
        await deletePersonalRows(trx, userId, opts.email);
        await anonymiseKeptRows(trx, userId, opts.email);
        await trx('user_profiles').where({ id: userId }).update({ email: null, locale: null, updated_at: opts.now });
        await trx('erased_customers').insert({ user_id: userId, erased_at: opts.now, email_hash: opts.emailHash });
        return { erased: true, already: false };
      });
    },
  };
}

export type ErasureRepo = ReturnType<typeof createErasureRepo>;

async function lockProfile(trx: Knex.Transaction, userId: string): Promise<{ id: string } | undefined> {
  const query = trx('user_profiles').where({ id: userId }).first('id');
  return dialectOf(trx) === 'postgres' ? query.forUpdate() : query;
}

/** Rows that only say who they were and how they reached the store: sign-ins, codes, Telegram, saved cards. */
async function deletePersonalRows(trx: Knex.Transaction, userId: string, email: string | null): Promise<void> {
  const telegramIds = (await trx('telegram_chats').where({ user_id: userId }).orWhere({ choices_user_id: userId }).pluck('telegram_id')) as (string | number)[];
  if (telegramIds.length) {
    await trx('telegram_broadcast_recipients').whereIn('telegram_id', telegramIds).delete();
    await trx('telegram_chats').whereIn('telegram_id', telegramIds).delete();
  }
  await trx('passkey_recovery_codes').where({ user_id: userId }).delete();
  await trx('passkeys').where({ user_id: userId }).delete();
  // Sessions take their refresh tokens and passkey checks with them (on delete cascade): every device is signed out.
  await trx('sessions').where({ user_id: userId }).delete();
  if (email) await trx('otp_codes').where({ email }).delete();
  await trx('telegram_link_tokens').where({ user_id: userId }).delete();
  await trx('telegram_pay_links').where({ user_id: userId }).delete();
  await trx('referral_links').where({ user_id: userId }).delete();
  await trx('saved_payment_methods').where({ user_id: userId }).delete();
  await trx('payment_customers').where({ user_id: userId }).delete();
  await trx('vpn_account_logs').where({ user_id: userId }).delete();
}

/** Rows the books keep (payments, referrals, the audit trail), with what named the customer taken out. */
async function anonymiseKeptRows(trx: Knex.Transaction, userId: string, email: string | null): Promise<void> {
  await trx('transactions').where({ user_id: userId }).whereNotNull('card_fingerprint').update({ card_fingerprint: null });
  await trx('referrals').where({ referred_id: userId }).whereNotNull('signup_ip').update({ signup_ip: null });
  await trx('audit_log').where({ actor_id: userId }).update({ actor_email: null, ip: null });
  // Their security events that name no actor (a code locked by wrong tries) keep no address either, and none a device.
  await trx('audit_log').where({ user_id: userId }).whereNull('actor_id').update({ actor_email: null, ip: null });
  // What an admin did to them may have written their address into the details: it is taken out, the action stays.
  const rows: { id: number; details: unknown }[] = await trx('audit_log')
    .where({ actor_id: userId })
    .orWhere((q) => q.where({ target_id: userId }))
    .orWhere((q) => q.where({ user_id: userId }))
    .select('id', 'details');
  for (const row of rows) {
    const parsed = row.details === null ? {} : parseJson<Record<string, unknown>>(row.details, {});
    const withDevice = typeof parsed === 'object' && parsed !== null && 'device' in parsed;
    if (withDevice) delete parsed.device;
    const details = toJson(parsed);
    if (!email || !details.includes(email)) {
      if (withDevice) await trx('audit_log').where({ id: row.id }).update({ details });
      continue;
    }
    await trx('audit_log')
      .where({ id: row.id })
      .update({ details: details.split(email).join('(erased)') });
  }
}
