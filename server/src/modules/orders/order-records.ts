import type { CryptoProgress, SubscriptionStatus, TransactionStatus } from '../../../../shared/billing.js';
import type { PlanBilling } from '../../../../shared/plans.js';
import type { TranslatedLocale } from '../../../../shared/plan-translations.js';
import type { Db } from '../../db/knex.js';
import type { TransactionEvent } from './transaction-states.js';

/**
 * What an order buys: a new account, more time on one, another plan for one from now (a plan change), an add-on for
 * one (more devices or traffic: no time), or money in the customer's wallet (a top-up: no plan, no account).
 */
export type CheckoutKind = 'purchase' | 'renewal' | 'top_up' | 'change' | 'add_on';

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
  /**
   * A plan change (kind `change`): the plan it switches from, and the unused paid time credited against this plan's
   * price (minor units, and whole days); `wallet_credit`, what of the credit is more than the price, paid into the
   * customer's wallet when the change is made.
   */
  change?: {
    from_plan_id: string | null;
    credit: number;
    credit_days: number;
    wallet_credit: number;
    /** What the account had before (its panel data limit, 0 = unlimited, and device limit): a refund of the change puts them back. */
    from_data_limit?: number;
    from_device_limit?: number | null;
  };
  /** An add-on (kind `add_on`): what it gives the account (`plan_name` is its name). */
  add_on?: { id: string; name: string; kind: 'devices' | 'traffic'; amount: number; until: 'period_end' | 'forever' };
  /**
   * The trial with a price (kind `purchase`): its waiting account holds the person's trial from the order on, and
   * `trial_used` is marked when it is paid (billing/trials). `trial_refused`: paid when the person's trial had been
   * taken meanwhile (two orders of it paid), so nothing was delivered and the payment goes back.
   */
  trial?: true;
  trial_refused?: true;
  /**
   * A purchase made while the customer's trial ran (billing/trials/trial-rules.ts `trialToConvert`): the trial account
   * it goes to instead of a new one, and what that account had (a refund puts it back). `converted_at`: set when the
   * payment was confirmed and the account was still the trial; an order whose trial was gone by then loses this field
   * and makes a new account.
   */
  converts_trial?: TrialConversion;
}

/** What a purchase made within the trial keeps of the trial account it converts. */
export interface TrialConversion {
  account_id: string;
  from_plan_id: string;
  /** The panel data limit it had (0 = unlimited) and its device limit (null = unlimited). */
  from_data_limit: number;
  from_device_limit: number | null;
  converted_at?: string;
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
  /** Until when the runner that sent it may still be waiting for its answer: no other runner sends it meanwhile. */
  sending_until?: string;
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
   * `period_already_paid`, a recurring invoice for days a one-off payment of the account already paid (see recurring-invoices.ts).
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
  /**
   * A plan change of a card subscription (kind `change`, on the recurring subscription itself: card-plan-change.ts),
   * written with its idempotency key before it is sent to the provider, which prorates it. `to` is what the
   * subscription's metadata becomes when its proration invoice is paid (so renewals bill and deliver the new plan).
   */
  plan_change?: CardPlanChange;
}

/** What a card subscription's plan change asks the provider for, and what it changes here once paid. */
export interface CardPlanChange {
  /** The provider's idempotency key: the change sent again is the same change. */
  key: string;
  price_ref: string;
  /** The instant it is prorated for (ISO): the quote's. */
  prorate_at: string;
  from_plan_id: string | null;
  from_data_limit: number;
  from_device_limit: number | null;
  /** What the provider credited for the unused time, and its whole days (the receipt says so). */
  credit: number;
  credit_days: number;
  to: Pick<SubscriptionMetadata, 'plan_id' | 'plan_name' | 'plan_names' | 'price' | 'data_limit' | 'device_limit' | 'locations'>;
}

export interface NewCheckout {
  subscription: {
    id: string;
    userId: string;
    vpnAccountId: string | null;
    providerId: string | null;
    providerAccountId?: string | null;
    planId: string | null;
    billing: PlanBilling;
    metadata: SubscriptionMetadata;
  };
  transaction: {
    id: string;
    amount: number;
    currency: string;
    promo?: TransactionMetadata['promo'];
    gift_code?: string;
    credit_spent?: number;
    providerTransactionId?: string;
  };
}
