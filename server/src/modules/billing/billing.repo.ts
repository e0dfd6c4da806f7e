import type { CryptoProgress, SubscriptionStatus, TransactionStatus } from '../../../../shared/billing.js';
import type { PlanBilling } from '../../../../shared/plans.js';
import type { TranslatedLocale } from '../../../../shared/plan-translations.js';
import type { Db } from '../../db/knex.js';
import { dialectOf } from '../../db/knex.js';
import { parseJson, toBool, toDate, toDateOrNull, toJson } from '../../db/values.js';
import { sourcesOf, targetOf, type TransactionEvent } from './ledger/transaction-states.js';

/** What an order buys: a new account, more time on one, or money in the customer's wallet (a top-up: no plan, no account). */
export type CheckoutKind = 'purchase' | 'renewal' | 'top_up';

/** Our order ids (transactions.id) are UUIDs. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What was bought, copied from the plan at checkout: a later change to the plan does not change a sale. */
export interface SubscriptionMetadata {
  plan_id: string;
  plan_name: string;
  /** The plan's name in the other languages the operator gave one in when it was bought (bought-plan-name.ts); absent on orders from before. */
  plan_names?: Partial<Record<TranslatedLocale, string>>;
  price: number;
  kind: CheckoutKind;
  /** The days it buys: the plan's, and `bonus_days` when a referral gave some. */
  days: number;
  /** Extra days the customer's referral added to this first order paid once (included in `days`). */
  bonus_days?: number;
  data_limit: number;
  locations: string;
  /** The plan's device limit when it was bought (null = unlimited); absent on orders from before device limits. */
  device_limit?: number | null;
  /** The store's currency when it was bought (its price is minor units of it); absent on orders from before: US dollars. */
  currency?: string;
  /** The payment error (spec: the subscription stays incomplete with the error in its metadata). */
  error?: string;
  /** When the account was created or extended for this payment (a recurring subscription: its first). */
  fulfilled_at?: string;
  /** Recurring: the latest provider state applied (an older event never overwrites it). */
  provider_observed_at?: string;
  /** Recurring: when a renewal charge first failed (the grace period runs from here); cleared when paid. */
  past_due_since?: string;
  /** Bought with a promo code: its terms, so later charges are known to be discounted or not (see shared/promo-codes.ts). */
  promo?: OrderPromo;
  /**
   * A recurring plan whose provider has no subscriptions (YooKassa): this server renews it, charging the payment
   * method its first payment saved (store-renewals.ts), instead of the provider renewing it.
   */
  renewed_by?: 'store';
}

/** A promo code as an order keeps it: the code, its terms, and what it took off each discounted payment (minor units). */
export interface OrderPromo {
  code: string;
  duration: 'once' | 'repeating' | 'forever';
  duration_months: number | null;
  discount: number;
}

export interface SubscriptionRecord {
  id: string;
  userId: string;
  vpnAccountId: string | null;
  providerId: string | null;
  providerName: string | null;
  /** The provider account that took it (provider_accounts); null = the account in force. */
  providerAccountId: string | null;
  planId: string | null;
  status: SubscriptionStatus;
  billing: PlanBilling;
  /** Recurring: the provider's subscription (set once checkout completes). */
  providerSubscriptionId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** Renewed by our own job: the saved payment method it charges (saved_payment_methods); null otherwise. */
  savedMethodId: string | null;
  metadata: SubscriptionMetadata;
  createdAt: Date;
}

export interface TransactionRecord {
  id: string;
  subscriptionId: string;
  userId: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  providerTransactionId: string | null;
  /** The provider's id of the payment itself (Stripe: the PaymentIntent), once paid. */
  providerPaymentId: string | null;
  /** Cents refunded so far (full or partial refunds). */
  amountRefunded: number;
  /** Recurring: the invoice this transaction pays (one transaction per invoice; a renewal our job charges: `renewal:<subscription>:<period end>`). */
  providerInvoiceId: string | null;
  /** A renewal our job charges: the tries made so far (each counted before it is sent). */
  chargeAttempts: number;
  metadata: TransactionMetadata;
  createdAt: Date;
  /** The provider that took it ('stripe', 'btcpay'), where the read joined it; null otherwise. */
  providerName: string | null;
  /** The provider account that took it (provider_accounts); null = its subscription's, or the account in force. */
  providerAccountId: string | null;
  /** The card it was paid with (the provider's fingerprint of the card number), when known. */
  cardFingerprint: string | null;
}

/**
 * Told of every status change of a transaction, inside the database transaction that made it (what it writes
 * commits or rolls back with the change): `transaction` as it is after the change, `event` the change made.
 */
export type TransactionTransitionListener = (transaction: TransactionRecord, event: TransactionEvent, now: Date, trx: Db) => Promise<void>;

export type ReviewReason = 'amount_mismatch' | 'partial_payment' | 'period_already_paid';

/** One try of a renewal charge of a saved payment method. */
export interface StoreCharge {
  attempt: number;
  /** The provider's idempotency key: the same try sent again is the same payment. */
  key: string;
  /** The provider's payment, once its answer is recorded. */
  payment_id?: string;
  outcome?: 'paid' | 'declined' | 'pending';
  reason?: string | null;
  at: string;
}

export interface TransactionMetadata {
  plan_name?: string;
  kind?: CheckoutKind;
  /** Paid with a promo code: the code, the price before it and what it took off (minor units of the transaction's currency). */
  promo?: { code: string; amount_before: number; discount: number };
  /** A gift code redeemed for it (nothing was paid). */
  gift_code?: string;
  /** Referral credit the customer had with the provider that paid part of it (minor units); `amount` is what the card paid. */
  credit_applied?: number;
  /** Referral credit of our own ledger that paid part of a one-off order (minor units; `spent` movements name the order); `amount` is what is left to pay. */
  credit_spent?: number;
  error?: string;
  /**
   * Why an admin must look at it (needs_review), and what was paid (minor units of `currency_paid`, the
   * order's currency for a crypto invoice): `amount_mismatch`, paid but not the amount or currency ordered;
   * `partial_payment`, a crypto invoice that closed (expired, or marked invalid) with only part of it paid;
   * `period_already_paid`, a recurring invoice for days a one-off payment of the account already paid (see recurring-payments.ts).
   */
  review?: { reason: ReviewReason; amount_paid: number | null; currency_paid: string | null };
  /** A crypto invoice paid more than its price (BTCPay's PaidOver): what was sent and how much too much, approximate at the invoice's rate. */
  overpaid?: { amount_paid: number; amount_over: number };
  /** The open or last dispute. */
  dispute?: { id: string; status: 'open' | 'won' | 'lost'; reason?: string | null };
  refund_reason?: string;
  refunded_at?: string;
  /** A crypto payment still open: what BTCPay has seen so far. */
  crypto?: CryptoProgress;
  /** A crypto refund: the link where the customer claims it (BTCPay pull payment). */
  refund_claim_url?: string;
  /**
   * A renewal this server charges (store-renewals.ts): each try, written before it is sent (its idempotency key),
   * then the provider's payment and how it ended. A try without an outcome is sent again with the same key.
   */
  charges?: StoreCharge[];
  /**
   * Recurring: the period the invoice bills, on transactions from before the paid-period ledger (migration
   * 022 copied them there; the ledger is what counts now), and when the account was extended for it.
   */
  period_start?: string;
  period_end?: string;
  fulfilled_at?: string;
  /**
   * The customer cancelled, written before the checkout is closed at the provider: the provider's "expired"
   * for it (its webhook may arrive before the cancel is saved) closes the payment as cancelled, not failed.
   */
  cancel_requested_at?: string;
}

export interface NewCheckout {
  subscription: { id: string; userId: string; vpnAccountId: string | null; providerId: string | null; providerAccountId?: string | null; planId: string | null; billing: PlanBilling; metadata: SubscriptionMetadata };
  transaction: { id: string; amount: number; currency: string; promo?: TransactionMetadata['promo']; gift_code?: string; credit_spent?: number; providerTransactionId?: string };
}

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

function toTransaction(row: Record<string, unknown>): TransactionRecord {
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
  's.id', 's.user_id', 's.vpn_account_id', 's.provider_id', 's.plan_id', 's.status', 's.current_period_start', 's.current_period_end',
  's.cancel_at_period_end', 's.canceled_at', 's.metadata', 's.created_at', 's.billing', 's.provider_subscription_id', 'pp.name as provider_name',
  's.provider_account_id', 's.saved_method_id',
];

/**
 * Subscriptions, transactions and processed webhook events. Methods that take part in a payment's
 * state change take the transaction (`trx`) they run in.
 */
export function createBillingRepo(db: Db, options: { onTransition?: TransactionTransitionListener } = {}) {
  const subscriptions = (conn: Db = db) =>
    conn('subscriptions as s').leftJoin('payment_providers as pp', 'pp.id', 's.provider_id').select(SUBSCRIPTION_COLUMNS);
  /** Row locks exist on PostgreSQL; SQLite runs one writer at a time, so its transaction already holds them all. */
  const lockable = dialectOf(db) === 'postgres';

  /**
   * The one way a transaction's status changes: `events` (all leading to the same status) allow exactly
   * the `from` statuses transaction-states.ts lists for them, and the conditional update is the
   * exactly-once gate (a second caller, racing or late, changes 0 rows). True for the caller that changed it.
   */
  async function changeTransactionStatus(
    id: string, events: TransactionEvent[], patch: (current: TransactionRecord) => Record<string, unknown>, now: Date, trx: Db,
  ): Promise<boolean> {
    const to = targetOf(events[0]!);
    if (events.some((event) => targetOf(event) !== to)) throw new Error(`The events ${events.join(', ')} lead to different statuses`);
    const from = [...new Set(events.flatMap(sourcesOf))];
    const read = trx('transactions').select('*').where({ id });
    if (lockable) read.forUpdate();
    const row = await read.first();
    if (!row) return false;
    const current = toTransaction(row);
    const patched = patch(current);
    const changed = await trx('transactions').where({ id }).whereIn('status', from).update({ status: to, ...patched, updated_at: now });
    if (changed === 0) return false;
    const event = events.find((candidate) => sourcesOf(candidate).includes(current.status))!;
    const after = toTransaction({ ...row, status: to, ...patched, updated_at: now });
    await options.onTransition?.(after, event, now, trx);
    return true;
  }

  return {
    async insertCheckout(checkout: NewCheckout, now: Date, trx: Db): Promise<void> {
      const { subscription: sub, transaction: tx } = checkout;
      await trx('subscriptions').insert({
        id: sub.id, user_id: sub.userId, vpn_account_id: sub.vpnAccountId, provider_id: sub.providerId, provider_account_id: sub.providerAccountId ?? null, plan_id: sub.planId,
        status: 'incomplete', billing: sub.billing, cancel_at_period_end: false, metadata: toJson(sub.metadata), created_at: now, updated_at: now,
      });
      await trx('transactions').insert({
        id: tx.id, subscription_id: sub.id, user_id: sub.userId, status: 'pending', amount: tx.amount, discount: tx.promo?.discount ?? 0, currency: tx.currency,
        provider_transaction_id: tx.providerTransactionId ?? null, provider_account_id: sub.providerAccountId ?? null, metadata: toJson({ plan_name: sub.metadata.plan_name, kind: sub.metadata.kind, ...(tx.promo ? { promo: tx.promo } : {}), ...(tx.gift_code ? { gift_code: tx.gift_code } : {}), ...(tx.credit_spent ? { credit_spent: tx.credit_spent } : {}) }), created_at: now, updated_at: now,
      });
    },

    /** Removes a checkout that never reached the provider (its transaction goes with it). */
    async deleteCheckout(subscriptionId: string, trx: Db): Promise<void> {
      await trx('transactions').where({ subscription_id: subscriptionId }).delete();
      await trx('subscriptions').where({ id: subscriptionId }).delete();
    },

    async setProviderTransactionId(transactionId: string, sessionId: string, now: Date): Promise<void> {
      await db('transactions').where({ id: transactionId }).whereNull('provider_transaction_id').update({ provider_transaction_id: sessionId, updated_at: now });
    },

    async findTransaction(id: string, trx: Db = db): Promise<TransactionRecord | undefined> {
      const row = await trx('transactions').select('*').where({ id }).first();
      return row && toTransaction(row);
    },

    /** A transaction, its row held until `trx` ends (PostgreSQL): changes to its refunds queue one behind the other. */
    async findTransactionForUpdate(id: string, trx: Db): Promise<TransactionRecord | undefined> {
      const query = trx('transactions').select('*').where({ id });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toTransaction(row);
    },

    async findTransactionBySession(sessionId: string, trx: Db = db): Promise<TransactionRecord | undefined> {
      const row = await trx('transactions').select('*').where({ provider_transaction_id: sessionId }).first();
      return row && toTransaction(row);
    },

    /** The caller's own transaction for a Checkout Session: someone else's is simply not found. */
    /**
     * The caller's payment by the id the return page carries: the provider's checkout id, or our own order id
     * (providers that make their id only when the payment is created send the customer back with ours).
     */
    async findTransactionBySessionForUser(sessionId: string, userId: string): Promise<TransactionRecord | undefined> {
      const bySession = await db('transactions').select('*').where({ provider_transaction_id: sessionId, user_id: userId }).first();
      if (bySession) return toTransaction(bySession);
      if (!UUID.test(sessionId)) return undefined;
      const byOrder = await db('transactions').select('*').where({ id: sessionId, user_id: userId }).first();
      return byOrder && toTransaction(byOrder);
    },

    /**
     * pending/failed → succeeded, once: the conditional update is the exactly-once gate (a second
     * caller, racing or late, changes 0 rows). Returns true for the caller that made the change.
     */
    async markTransactionSucceeded(
      id: string, details: { checkoutId: string; paymentRef: string | null; cardFingerprint?: string | null; fromReview?: boolean; overpaid?: TransactionMetadata['overpaid'] }, now: Date, trx: Db,
    ): Promise<boolean> {
      // needs_review only when the caller says so: a crypto invoice closed part-paid that was paid in full after all.
      const events: TransactionEvent[] = details.fromReview ? ['paid', 'paid_after_review'] : ['paid'];
      return changeTransactionStatus(id, events, (current) => {
        const { error: _cleared, ...metadata } = current.metadata;
        return {
          provider_transaction_id: details.checkoutId, provider_payment_id: details.paymentRef, ...(details.cardFingerprint ? { card_fingerprint: details.cardFingerprint } : {}),
          metadata: toJson({ ...metadata, ...(details.overpaid ? { overpaid: details.overpaid } : {}) }),
        };
      }, now, trx);
    },

    /** A crypto refund: where the customer claims it (the refund e-mail links it). */
    async setRefundClaimUrl(id: string, url: string, now: Date, trx: Db): Promise<void> {
      const read = trx('transactions').select('metadata').where({ id });
      if (lockable) read.forUpdate();
      const row = await read.first();
      if (!row) return;
      await trx('transactions').where({ id }).update({ metadata: toJson({ ...parseJson<TransactionMetadata>(row.metadata, {}), refund_claim_url: url }), updated_at: now });
    },

    /**
     * A crypto payment still open: records what BTCPay has seen (a payment waiting for confirmations, a
     * partial one). A payment seen after the invoice expired (`reopen`) takes a failed one back to pending.
     */
    async recordCryptoProgress(id: string, crypto: CryptoProgress, now: Date, trx: Db, options: { reopen?: boolean } = {}): Promise<boolean> {
      return changeTransactionStatus(id, options.reopen ? ['crypto_progress', 'late_payment_seen'] : ['crypto_progress'], (current) => {
        const { error: _cleared, ...metadata } = current.metadata;
        return { metadata: toJson({ ...(options.reopen ? metadata : current.metadata), crypto }) };
      }, now, trx);
    },

    /** pending → failed, once; a succeeded payment never becomes failed. */
    async markTransactionFailed(id: string, error: string, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, ['failed'], (current) => ({ metadata: toJson({ ...current.metadata, error }) }), now, trx);
    },

    /** pending → cancelled: the customer cancelled at the provider's page; `error` says so. */
    async markTransactionCancelled(id: string, error: string, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, ['cancelled'], (current) => ({ metadata: toJson({ ...current.metadata, error }) }), now, trx);
    },

    /** pending/failed → needs_review: paid, but not what was ordered; nothing is delivered until an admin acts. */
    async markTransactionNeedsReview(id: string, details: { checkoutId: string; paymentRef: string | null; review: NonNullable<TransactionMetadata['review']> }, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, ['held_for_review'], (current) => ({
        provider_transaction_id: details.checkoutId, provider_payment_id: details.paymentRef, metadata: toJson({ ...current.metadata, review: details.review }),
      }), now, trx);
    },

    /** → refunded, once: a full refund, or (with `dispute`) a lost dispute. */
    async markTransactionRefunded(id: string, details: { amountRefunded: number; reason?: string; dispute?: TransactionMetadata['dispute'] }, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, [details.dispute?.status === 'lost' ? 'dispute_lost' : 'refunded'], (current) => ({
        amount_refunded: Math.max(current.amountRefunded, details.amountRefunded),
        metadata: toJson({ ...current.metadata, refunded_at: now.toISOString(), ...(details.reason ? { refund_reason: details.reason } : {}), ...(details.dispute ? { dispute: details.dispute } : {}) }),
      }), now, trx);
    },

    /** succeeded → disputed, once per dispute. */
    async markTransactionDisputed(id: string, dispute: NonNullable<TransactionMetadata['dispute']>, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, ['disputed'], (current) => ({ metadata: toJson({ ...current.metadata, dispute }) }), now, trx);
    },

    /** disputed → succeeded: the dispute was won. */
    async markDisputeWon(id: string, disputeId: string, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, ['dispute_won'], (current) => ({ metadata: toJson({ ...current.metadata, dispute: { id: disputeId, status: 'won' } }) }), now, trx);
    },

    /** Raises the refunded total (never lowers it: a late or repeated event cannot undo a later one). True when it rose. */
    async recordAmountRefunded(id: string, amountRefunded: number, now: Date, trx: Db): Promise<boolean> {
      const changed = await trx('transactions').where({ id }).where('amount_refunded', '<', amountRefunded).update({ amount_refunded: amountRefunded, updated_at: now });
      return changed > 0;
    },

    /** Sets the refunded total (a refund that failed later lowers it). */
    async setAmountRefunded(id: string, amountRefunded: number, now: Date, trx: Db): Promise<void> {
      await trx('transactions').where({ id }).update({ amount_refunded: Math.max(0, amountRefunded), updated_at: now });
    },

    /** The paid transaction a refund or dispute names, locked for the change (PostgreSQL). */
    async findTransactionByPaymentRef(paymentRef: string, trx: Db): Promise<TransactionRecord | undefined> {
      const query = trx('transactions').select('*').where({ provider_payment_id: paymentRef });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toTransaction(row);
    },

    /**
     * Holds the account's row until the transaction ends, so payments that change its paid period
     * queue one behind the other (PostgreSQL; SQLite has a single writer anyway).
     */
    async lockAccount(vpnAccountId: string, trx: Db): Promise<void> {
      if (lockable) await trx('vpn_accounts').select('id').where({ id: vpnAccountId }).forUpdate().first();
    },

    async findSubscription(id: string, trx: Db = db): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions(trx).where('s.id', id).first();
      return row && toSubscriptionRecord(row);
    },

    /** The subscription, its row locked until `trx` ends (changes to it queue behind each other). */
    async findSubscriptionForUpdate(id: string, trx: Db): Promise<SubscriptionRecord | undefined> {
      const lock = trx('subscriptions').select('id').where({ id });
      if (lockable) lock.forUpdate();
      if (!(await lock.first())) return undefined;
      const row = await subscriptions(trx).where('s.id', id).first();
      return row && toSubscriptionRecord(row);
    },

    async updateSubscription(
      id: string,
      changes: Partial<{
        status: SubscriptionStatus; vpnAccountId: string | null; currentPeriodStart: Date; currentPeriodEnd: Date;
        cancelAtPeriodEnd: boolean; canceledAt: Date | null; providerSubscriptionId: string; metadata: SubscriptionMetadata; savedMethodId: string | null;
      }>,
      now: Date,
      trx: Db = db,
    ): Promise<void> {
      await trx('subscriptions').where({ id }).update({
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.vpnAccountId !== undefined ? { vpn_account_id: changes.vpnAccountId } : {}),
        ...(changes.currentPeriodStart !== undefined ? { current_period_start: changes.currentPeriodStart } : {}),
        ...(changes.currentPeriodEnd !== undefined ? { current_period_end: changes.currentPeriodEnd } : {}),
        ...(changes.canceledAt !== undefined ? { canceled_at: changes.canceledAt } : {}),
        ...(changes.savedMethodId !== undefined ? { saved_method_id: changes.savedMethodId } : {}),
        ...(changes.cancelAtPeriodEnd !== undefined ? { cancel_at_period_end: changes.cancelAtPeriodEnd } : {}),
        ...(changes.providerSubscriptionId !== undefined ? { provider_subscription_id: changes.providerSubscriptionId } : {}),
        ...(changes.metadata !== undefined ? { metadata: toJson(changes.metadata) } : {}),
        updated_at: now,
      });
    },

    /** The account's recurring subscription that will charge again (active or past_due, auto-renew on), if any. */
    async renewingSubscriptionOf(vpnAccountId: string, trx: Db = db): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions(trx).where({ 's.vpn_account_id': vpnAccountId, 's.billing': 'recurring', 's.cancel_at_period_end': false })
        .whereIn('s.status', ['active', 'past_due']).orderBy('s.created_at', 'desc').first();
      return row && toSubscriptionRecord(row);
    },

    /** A recurring subscription by the provider's id or, before it is linked, by ours; locked for the change (PostgreSQL). */
    async findRecurring(ref: { providerSubscriptionId: string; orderRef: string | null }, trx: Db): Promise<SubscriptionRecord | undefined> {
      const byProvider = await trx('subscriptions').select('id').where({ provider_subscription_id: ref.providerSubscriptionId }).first();
      const id = (byProvider?.id as string | undefined) ?? ref.orderRef;
      if (!id) return undefined;
      const lock = trx('subscriptions').select('id').where({ id, billing: 'recurring' });
      if (lockable) lock.forUpdate();
      if (!(await lock.first())) return undefined;
      const row = await subscriptions(trx).where('s.id', id).first();
      const found = row && toSubscriptionRecord(row);
      // Our id copied onto another provider subscription: not this one.
      if (found?.providerSubscriptionId && found.providerSubscriptionId !== ref.providerSubscriptionId) return undefined;
      return found;
    },

    /** The transaction of an invoice, or of a recurring subscription's first payment (made at checkout, before its invoice was known). */
    async findInvoiceTransaction(subscriptionId: string, invoiceId: string, first: boolean, trx: Db): Promise<TransactionRecord | undefined> {
      const byInvoice = await trx('transactions').select('*').where({ provider_invoice_id: invoiceId }).first();
      if (byInvoice) return toTransaction(byInvoice);
      if (!first) return undefined;
      const row = await trx('transactions').select('*').where({ subscription_id: subscriptionId }).whereNull('provider_invoice_id')
        .orderBy('created_at', 'asc').first();
      return row && toTransaction(row);
    },

    /** A renewal invoice's transaction, once: a second insert for the same invoice adds nothing (unique invoice id). */
    async insertInvoiceTransaction(tx: { id: string; subscriptionId: string; userId: string; invoiceId: string; amount: number; currency: string; metadata: TransactionMetadata }, now: Date, trx: Db): Promise<void> {
      await trx('transactions').insert({
        id: tx.id, subscription_id: tx.subscriptionId, user_id: tx.userId, status: 'pending', amount: tx.amount, discount: tx.metadata.promo?.discount ?? 0, currency: tx.currency,
        provider_invoice_id: tx.invoiceId, metadata: toJson(tx.metadata), created_at: now, updated_at: now,
        // The account that bills the subscription took the renewal.
        provider_account_id: trx('subscriptions').select('provider_account_id').where({ id: tx.subscriptionId }),
      }).onConflict('provider_invoice_id').ignore();
    },

    /**
     * Counts the next try of a renewal charge before it is sent, when `made` tries were made so far and the charge is
     * still open: true for the one caller that moved the counter.
     */
    async countChargeAttempt(id: string, made: number, now: Date, trx: Db): Promise<boolean> {
      // Compare and set: two runners that both saw `made` tries count one; the other finds the try in progress.
      const changed = await trx('transactions').where({ id, charge_attempts: made }).whereIn('status', ['pending', 'failed'])
        .update({ charge_attempts: made + 1, updated_at: now });
      return changed > 0;
    },

    /** Subscriptions this server renews whose period ends before `before` (their renewal is due to be charged), oldest end first. */
    async listStoreRenewalsDue(before: Date, limit: number): Promise<Array<{ id: string; vpnAccountId: string | null; currentPeriodEnd: Date }>> {
      const rows = await db('subscriptions').select('id', 'vpn_account_id', 'current_period_end').where({ billing: 'recurring', cancel_at_period_end: false })
        .whereNotNull('saved_method_id').whereIn('status', ['active', 'past_due']).where('current_period_end', '<=', before)
        .orderBy('current_period_end', 'asc').limit(limit);
      return rows.map((row: Record<string, unknown>) => ({ id: row.id as string, vpnAccountId: (row.vpn_account_id as string | null) ?? null, currentPeriodEnd: toDate(row.current_period_end) }));
    },

    /** pending/failed → succeeded for an invoice, once; it records the invoice and its payment (the period it bought goes to the ledger). */
    async markInvoicePaid(id: string, details: { invoiceId: string; paymentRef: string | null; amount?: number; creditApplied?: number }, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(id, ['paid'], (current) => {
        const { error: _cleared, ...metadata } = current.metadata;
        // A first invoice the customer's credit balance paid part of: the transaction is what the card paid.
        const credit = details.creditApplied ? { amount: details.amount ?? current.amount, metadata: toJson({ ...metadata, credit_applied: details.creditApplied }) } : { metadata: toJson(metadata) };
        return { provider_invoice_id: details.invoiceId, provider_payment_id: details.paymentRef, ...credit };
      }, now, trx);
    },

    /** A paid invoice's payment, learnt late (the event did not carry it): refunds and disputes can find it from now on. */
    async setPaymentRef(id: string, paymentRef: string, now: Date, trx: Db): Promise<void> {
      await trx('transactions').where({ id }).whereNull('provider_payment_id').update({ provider_payment_id: paymentRef, updated_at: now });
    },

    async setTransactionMetadata(id: string, metadata: TransactionMetadata, now: Date, trx: Db = db): Promise<void> {
      await trx('transactions').where({ id }).update({ metadata: toJson(metadata), updated_at: now });
    },

    /** Open payments of one provider whose checkout was created, oldest first, with the provider account that took each. */
    async listOpenCheckouts(providerName: string, limit: number): Promise<Array<{ transactionId: string; checkoutId: string; providerAccountId: string | null }>> {
      const rows = await db('transactions as t').join('subscriptions as s', 's.id', 't.subscription_id').join('payment_providers as pp', 'pp.id', 's.provider_id')
        .where({ 't.status': 'pending', 'pp.name': providerName }).whereNotNull('t.provider_transaction_id')
        .select('t.id', 't.provider_transaction_id', 't.provider_account_id', 's.provider_account_id as subscription_account_id')
        .orderBy('t.created_at', 'asc').limit(limit);
      return rows.map((row: Record<string, unknown>) => ({
        transactionId: row.id as string, checkoutId: row.provider_transaction_id as string,
        providerAccountId: (row.provider_account_id as string | null) ?? (row.subscription_account_id as string | null) ?? null,
      }));
    },

    /** Checkouts of this account still waiting for their payment (a renewal in progress). */
    async listPendingForAccount(vpnAccountId: string): Promise<TransactionRecord[]> {
      const rows = await db('transactions as t').join('subscriptions as s', 's.id', 't.subscription_id')
        .where({ 's.vpn_account_id': vpnAccountId, 't.status': 'pending' }).select('t.*');
      return rows.map(toTransaction);
    },

    /** Whether a payment for this account is being disputed (the account stays disabled until it is closed). */
    async hasOpenDispute(vpnAccountId: string, trx: Db = db): Promise<boolean> {
      const row = await trx('transactions as t').join('subscriptions as s', 's.id', 't.subscription_id')
        .where({ 's.vpn_account_id': vpnAccountId, 't.status': 'disputed' }).select('t.id').first();
      return row !== undefined;
    },

    async listSubscriptionsForUser(userId: string): Promise<SubscriptionRecord[]> {
      const rows = await subscriptions().where('s.user_id', userId).orderBy([{ column: 's.created_at', order: 'desc' }, { column: 's.id', order: 'desc' }]);
      return rows.map(toSubscriptionRecord);
    },

    async findSubscriptionForUser(id: string, userId: string): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions().where({ 's.id': id, 's.user_id': userId }).first();
      return row && toSubscriptionRecord(row);
    },

    async listTransactionsForUser(userId: string): Promise<TransactionRecord[]> {
      const rows = await db('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
        .select('t.*', 'pp.name as provider_name')
        .where({ 't.user_id': userId })
        .orderBy([{ column: 't.created_at', order: 'desc' }, { column: 't.id', order: 'desc' }]);
      return rows.map(toTransaction);
    },

    /** The newest transactions of every customer, with the customer's e-mail, for the admin. */
    /** `providerName`: the provider that took them; null for orders no provider took (paid from the balance, or free). */
    async listTransactionsForAdmin(filter: { status?: TransactionStatus; id?: string; userId?: string; providerName?: string | null; limit: number }): Promise<Array<TransactionRecord & { userEmail: string }>> {
      const query = db('transactions as t').join('user_profiles as u', 'u.id', 't.user_id')
        .join('subscriptions as s', 's.id', 't.subscription_id').leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
        .select('t.*', 'u.email as user_email', 'pp.name as provider_name')
        .orderBy([{ column: 't.created_at', order: 'desc' }, { column: 't.id', order: 'desc' }]).limit(filter.limit);
      if (filter.status) query.where('t.status', filter.status);
      if (filter.id) query.where('t.id', filter.id);
      if (filter.userId) query.where('t.user_id', filter.userId);
      if (filter.providerName === null) query.whereNull('pp.name');
      else if (filter.providerName) query.where('pp.name', filter.providerName);
      const rows = await query;
      return rows.map((row: Record<string, unknown>) => ({ ...toTransaction(row), userEmail: row.user_email as string }));
    },

    /**
     * Records a provider's event inside the transaction that applies it. Only the caller whose insert
     * took applies the event: a duplicate (redelivered, or racing) inserts nothing and returns false.
     */
    async recordEvent(event: { id: string; provider: string; type: string }, now: Date, trx: Db): Promise<boolean> {
      const inserted = await trx('webhook_events')
        .insert({ id: event.id, provider: event.provider, type: event.type, processed_at: now })
        .onConflict('id').ignore()
        .returning('id');
      return inserted.length > 0;
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
