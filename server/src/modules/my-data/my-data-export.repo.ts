import type { MyDataAccount, MyDataExport } from '../../../../shared/my-data.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toBool, toDate, toDateOrNull } from '../../db/values.js';

type Row = Record<string, unknown>;

const iso = (value: unknown): string => toDate(value).toISOString();
const isoOrNull = (value: unknown): string | null => toDateOrNull(value)?.toISOString() ?? null;
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;

/**
 * Reads everything the store holds about one customer, table by table, for `GET /api/me/export`. Each read names the
 * customer in its own WHERE, so no row of anyone else can be in the answer; secrets (card references, token hashes,
 * panel passwords) are not read at all.
 */
export function createMyDataExportRepo(db: Db) {
  return {
    async read(userId: string, now: Date): Promise<MyDataExport | undefined> {
      const profile = await db('user_profiles')
        .where({ id: userId })
        .whereNotExists(db('erased_customers').where({ user_id: userId }).select('user_id'))
        .first('id', 'email', 'locale', 'trial_used', 'created_at');
      if (!profile) return undefined;
      const [sessions, passkeys, accounts, subscriptions, payments, wallet, savedPaymentMethods, referrals, promoCodes, giftCodes, telegram, securityEvents] =
        await Promise.all([
          readSessions(db, userId),
          readPasskeys(db, userId),
          readAccounts(db, userId),
          readSubscriptions(db, userId),
          readPayments(db, userId),
          readWallet(db, userId),
          readSavedMethods(db, userId),
          readReferrals(db, userId),
          readPromoCodes(db, userId),
          readGiftCodes(db, userId),
          readTelegram(db, userId),
          readSecurityEvents(db, userId),
        ]);
      return {
        exportedAt: now.toISOString(),
        profile: {
          id: String(profile.id),
          email: text(profile.email),
          locale: text(profile.locale),
          trialUsed: toBool(profile.trial_used),
          createdAt: iso(profile.created_at),
        },
        sessions,
        passkeys,
        accounts,
        subscriptions,
        payments,
        wallet,
        savedPaymentMethods,
        referrals,
        promoCodes,
        giftCodes,
        telegram,
        securityEvents,
      };
    },
  };
}

export type MyDataExportRepo = ReturnType<typeof createMyDataExportRepo>;

async function readPasskeys(db: Db, userId: string): Promise<MyDataExport['passkeys']> {
  const rows: Row[] = await db('passkeys').where({ user_id: userId }).orderBy('created_at').select('name', 'created_at', 'last_used_at');
  return rows.map((row) => ({ name: String(row.name), createdAt: iso(row.created_at), lastUsedAt: row.last_used_at ? iso(row.last_used_at) : null }));
}

async function readSessions(db: Db, userId: string): Promise<MyDataExport['sessions']> {
  const rows: Row[] = await db('sessions')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('client', 'user_agent', 'ip', 'created_at', 'last_used_at', 'revoked_at');
  return rows.map((row) => ({
    client: String(row.client),
    userAgent: text(row.user_agent),
    ip: text(row.ip),
    createdAt: iso(row.created_at),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: isoOrNull(row.revoked_at),
  }));
}

async function readAccounts(db: Db, userId: string): Promise<MyDataAccount[]> {
  const rows: Row[] = await db('vpn_accounts')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('id', 'username', 'status', 'plan_id', 'expire_date', 'data_limit', 'device_limit', 'subscription_url', 'created_at');
  const ids = rows.map((row) => String(row.id));
  const devices: Row[] = ids.length
    ? await db('account_devices')
        .whereIn('vpn_account_id', ids)
        .orderBy('first_seen_at')
        .select('vpn_account_id', 'os', 'os_version', 'model', 'app', 'first_seen_at', 'last_seen_at')
    : [];
  return rows.map((row) => ({
    id: String(row.id),
    username: String(row.username),
    status: String(row.status),
    planId: text(row.plan_id),
    expireDate: isoOrNull(row.expire_date),
    dataLimit: Number(row.data_limit),
    deviceLimit: row.device_limit === null ? null : Number(row.device_limit),
    subscriptionUrl: text(row.subscription_url),
    createdAt: iso(row.created_at),
    devices: devices
      .filter((device) => device.vpn_account_id === row.id)
      .map((device) => ({
        os: text(device.os),
        osVersion: text(device.os_version),
        model: text(device.model),
        app: text(device.app),
        firstSeenAt: iso(device.first_seen_at),
        lastSeenAt: iso(device.last_seen_at),
      })),
  }));
}

async function readSubscriptions(db: Db, userId: string): Promise<MyDataExport['subscriptions']> {
  const rows: Row[] = await db('subscriptions')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('id', 'status', 'billing', 'plan_id', 'vpn_account_id', 'current_period_start', 'current_period_end', 'cancel_at_period_end', 'created_at');
  return rows.map((row) => ({
    id: String(row.id),
    status: String(row.status),
    billing: String(row.billing),
    planId: text(row.plan_id),
    vpnAccountId: text(row.vpn_account_id),
    currentPeriodStart: isoOrNull(row.current_period_start),
    currentPeriodEnd: isoOrNull(row.current_period_end),
    cancelAtPeriodEnd: toBool(row.cancel_at_period_end),
    createdAt: iso(row.created_at),
  }));
}

async function readPayments(db: Db, userId: string): Promise<MyDataExport['payments']> {
  const rows: Row[] = await db('transactions')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('id', 'status', 'amount', 'currency', 'discount', 'amount_refunded', 'created_at');
  const refunds: Row[] = rows.length
    ? await db('refunds')
        .whereIn(
          'transaction_id',
          rows.map((row) => String(row.id)),
        )
        .orderBy('created_at')
        .select('transaction_id', 'amount', 'currency', 'status', 'created_at')
    : [];
  return rows.map((row) => ({
    id: String(row.id),
    status: String(row.status),
    amount: Number(row.amount),
    currency: String(row.currency),
    discount: Number(row.discount),
    amountRefunded: Number(row.amount_refunded),
    createdAt: iso(row.created_at),
    refunds: refunds
      .filter((refund) => refund.transaction_id === row.id)
      .map((refund) => ({
        amount: Number(refund.amount),
        currency: String(refund.currency),
        status: String(refund.status),
        createdAt: iso(refund.created_at),
      })),
  }));
}

async function readWallet(db: Db, userId: string): Promise<MyDataExport['wallet']> {
  const rows: Row[] = await db('wallet_movements')
    .where({ user_id: userId })
    .orderBy('id')
    .select('kind', 'amount', 'currency', 'note', 'available_at', 'created_at');
  return rows.map((row) => ({
    kind: String(row.kind),
    amount: Number(row.amount),
    currency: String(row.currency),
    note: text(row.note),
    availableAt: iso(row.available_at),
    createdAt: iso(row.created_at),
  }));
}

async function readSavedMethods(db: Db, userId: string): Promise<MyDataExport['savedPaymentMethods']> {
  const rows: Row[] = await db('saved_payment_methods')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('provider', 'title', 'created_at', 'removed_at');
  return rows.map((row) => ({
    provider: String(row.provider),
    title: String(row.title),
    createdAt: iso(row.created_at),
    removedAt: isoOrNull(row.removed_at),
  }));
}

async function readReferrals(db: Db, userId: string): Promise<MyDataExport['referrals']> {
  const [link, invited, invitedBy] = await Promise.all([
    db('referral_links').where({ user_id: userId }).first('code'),
    db('referrals').where({ referrer_id: userId }).orderBy('created_at').select('status', 'created_at', 'first_paid_at') as Promise<Row[]>,
    db('referrals').where({ referred_id: userId }).first('status', 'created_at') as Promise<Row | undefined>,
  ]);
  return {
    code: link ? String(link.code) : null,
    invited: invited.map((row) => ({ status: String(row.status), createdAt: iso(row.created_at), firstPaidAt: isoOrNull(row.first_paid_at) })),
    invitedBy: invitedBy ? { status: String(invitedBy.status), createdAt: iso(invitedBy.created_at) } : null,
  };
}

async function readPromoCodes(db: Db, userId: string): Promise<MyDataExport['promoCodes']> {
  const rows: Row[] = await db('promo_redemptions')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('amount_before', 'discount', 'currency', 'created_at');
  return rows.map((row) => ({
    amountBefore: Number(row.amount_before),
    discount: Number(row.discount),
    currency: String(row.currency),
    createdAt: iso(row.created_at),
  }));
}

async function readGiftCodes(db: Db, userId: string): Promise<MyDataExport['giftCodes']> {
  const rows: Row[] = await db('gift_codes').where({ redeemed_by: userId }).orderBy('redeemed_at').select('redeemed_at');
  return rows.map((row) => ({ redeemedAt: isoOrNull(row.redeemed_at) }));
}

async function readTelegram(db: Db, userId: string): Promise<MyDataExport['telegram']> {
  const rows: Row[] = await db('telegram_chats')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select('telegram_id', 'username', 'first_name', 'language_code', 'notices_by_email', 'codes_by_telegram', 'created_at');
  return rows.map((row) => ({
    telegramId: String(row.telegram_id),
    username: text(row.username),
    firstName: text(row.first_name),
    languageCode: text(row.language_code),
    noticesByEmail: toBool(row.notices_by_email),
    codesByTelegram: toBool(row.codes_by_telegram),
    createdAt: iso(row.created_at),
  }));
}

/** The audit log's rows about them: what they did, and what was done to their account (by its id). */
async function readSecurityEvents(db: Db, userId: string): Promise<MyDataExport['securityEvents']> {
  const rows: Row[] = await db('audit_log')
    .where((q) => q.where({ actor_id: userId }).orWhere((inner) => inner.where({ target_type: 'user', target_id: userId })))
    .orderBy('id')
    .select('action', 'ip', 'details', 'created_at');
  return rows.map((row) => ({
    action: String(row.action),
    ip: text(row.ip),
    details: parseJson<Record<string, unknown>>(row.details, {}),
    createdAt: iso(row.created_at),
  }));
}
