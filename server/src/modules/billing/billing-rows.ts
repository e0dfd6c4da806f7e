import type { SubscriptionStatus, TransactionStatus } from '../../../../shared/billing.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { parseJson, toBool, toDate, toDateOrNull } from '../../db/values.js';
import type { SubscriptionMetadata, SubscriptionRecord, TransactionMetadata, TransactionRecord } from './billing.repo.js';

/**
 * How billing rows read back as records: the subscription and transaction converters, and the subscription
 * select (with its provider's name) that the billing repository's row groups share.
 */

export function toSubscriptionRecord(row: Record<string, unknown>): SubscriptionRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    vpnAccountId: (row.vpn_account_id as string | null) ?? null,
    providerId: (row.provider_id as string | null) ?? null,
    providerName: (row.provider_name as string | null) ?? null,
    providerAccountId: (row.provider_account_id as string | null | undefined) ?? null,
    planId: (row.plan_id as string | null) ?? null,
    status: row.status as SubscriptionStatus,
    billing: row.billing === 'recurring' ? 'recurring' : 'one_off',
    providerSubscriptionId: (row.provider_subscription_id as string | null) ?? null,
    currentPeriodStart: toDateOrNull(row.current_period_start),
    currentPeriodEnd: toDateOrNull(row.current_period_end),
    cancelAtPeriodEnd: toBool(row.cancel_at_period_end),
    canceledAt: toDateOrNull(row.canceled_at),
    savedMethodId: (row.saved_method_id as string | null | undefined) ?? null,
    metadata: parseJson<SubscriptionMetadata>(row.metadata, {} as SubscriptionMetadata),
    createdAt: toDate(row.created_at),
  };
}

export function toTransactionRecord(row: Record<string, unknown>): TransactionRecord {
  return {
    id: row.id as string,
    subscriptionId: row.subscription_id as string,
    userId: row.user_id as string,
    status: row.status as TransactionStatus,
    amount: Number(row.amount),
    currency: row.currency as string,
    providerTransactionId: (row.provider_transaction_id as string | null) ?? null,
    providerPaymentId: (row.provider_payment_id as string | null) ?? null,
    amountRefunded: Number(row.amount_refunded ?? 0),
    providerInvoiceId: (row.provider_invoice_id as string | null) ?? null,
    chargeAttempts: Number(row.charge_attempts ?? 0),
    metadata: parseJson<TransactionMetadata>(row.metadata, {}),
    createdAt: toDate(row.created_at),
    providerName: (row.provider_name as string | null | undefined) ?? null,
    providerAccountId: (row.provider_account_id as string | null | undefined) ?? null,
    cardFingerprint: (row.card_fingerprint as string | null | undefined) ?? null,
  };
}

export const SUBSCRIPTION_COLUMNS = [
  's.id',
  's.user_id',
  's.vpn_account_id',
  's.provider_id',
  's.plan_id',
  's.status',
  's.current_period_start',
  's.current_period_end',
  's.cancel_at_period_end',
  's.canceled_at',
  's.metadata',
  's.created_at',
  's.billing',
  's.provider_subscription_id',
  'pp.name as provider_name',
  's.provider_account_id',
  's.saved_method_id',
];

/** Subscriptions with their provider's name, read through `conn` (a transaction, or the database). */
export const selectSubscriptions = (conn: Db) =>
  conn('subscriptions as s').leftJoin('payment_providers as pp', 'pp.id', 's.provider_id').select(SUBSCRIPTION_COLUMNS);

/** Row locks exist on PostgreSQL; SQLite runs one writer at a time, so its transaction already holds them all. */
export const isLockable = (db: Db): boolean => dialectOf(db) === 'postgres';
