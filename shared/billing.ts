import type { PaymentMethod, ProviderMethod, TransactionMethod } from './billing-schemas.js';
import type { VpnAccount } from './accounts.js';
import type { PlanNames } from './plan-translations.js';

/**
 * Card payments: the HTTP contract of checkout, subscriptions, transactions and the admin's card
 * provider settings. Types only (no zod), so the dashboard can import it; the request schemas are in
 * billing-schemas.ts.
 */

/** `ended`: a one-off purchase whose paid period is over (shown, never stored). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'active', 'past_due', 'canceled', 'ended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * `needs_review`: paid, but not the amount or currency ordered (an admin decides); `refunded`: fully
 * refunded, or a dispute was lost; `disputed`: the customer's bank is disputing it (account paused).
 */
/** `cancelled`: the customer left the provider's page with Cancel (not a failed payment; nothing was charged). */
export const TRANSACTION_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled', 'needs_review', 'refunded', 'disputed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** `POST /api/checkout`: buy `planId`, or renew `accountId` (the same plan again, same panel account). */
export type CheckoutRequest = ({ planId: string } | { accountId: string }) & { method?: PaymentMethod; promoCode?: string };

/** The answer of `POST /api/checkout`: send the browser to `url`. */
export interface CheckoutStarted {
  url: string;
  sessionId: string;
  subscriptionId: string;
}

/**
 * `GET /api/checkout/:sessionId`, polled by the return pages. `account` is there once the payment has
 * succeeded and the account is provisioned (active, with its links).
 */
export interface CheckoutStatus {
  status: TransactionStatus;
  subscriptionId: string;
  /** True for a renewal of an existing account. */
  renewal: boolean;
  account?: VpnAccount;
  /** Why a failed payment failed. */
  error?: string;
  /** A crypto payment still open: seen and waiting for confirmations, or partly paid (what is missing). */
  crypto?: CryptoProgress;
  /** The order's currency (its amounts, `crypto` included, are minor units of it). */
  currency: string;
  /** A top-up of the wallet (no account comes of it): once succeeded, the money is in the balance. */
  topUp?: true;
  /**
   * What an order for an existing account was, besides a renewal: its plan changed, an add-on bought for it, or
   * (`trial`) a plan bought within the trial, which the trial's own account became (same link).
   */
  change?: 'plan' | 'add_on' | 'trial';
}

/** `GET /api/subscriptions`, newest first. */
export interface Subscription {
  id: string;
  /**
   * A recurring subscription mirrors the provider: `incomplete` until its first payment, `active`,
   * `past_due` after a failed renewal charge (the account keeps working for the grace period), `canceled`
   * once it has ended (the account runs to `currentPeriodEnd`). A one-off purchase is `active` and then `ended`.
   */
  status: SubscriptionStatus;
  /** `recurring`: charged again every period until cancelled. */
  billing: 'one_off' | 'recurring';
  vpnAccountId: string | null;
  planId: string | null;
  planName: string;
  /** The plan's name in the languages it was translated into when it was bought (`planName` is the English). */
  planNames?: PlanNames;
  /** Cents. */
  price: number;
  currency: string;
  providerName: string | null;
  renewal: boolean;
  /** It will be charged again at `renewsAt` (recurring, not cancelled, not ended). */
  autoRenews: boolean;
  /** When the next charge is due (the end of the paid period), while it auto-renews; else null. */
  renewsAt: string | null;
  /** Cents charged at `renewsAt` (the price the subscription was bought at). */
  renewalAmount: number | null;
  /** The paid period (for a recurring subscription: its latest paid invoice). */
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  /** Auto-renew is off: it ends at `currentPeriodEnd` (Resume turns it back on until then). */
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  /** When a past_due subscription's account is paused unless the card is fixed before then. */
  graceEndsAt: string | null;
  /** The payment error, when the payment failed. */
  error: string | null;
  createdAt: string;
  /**
   * A recurring plan this store renews itself, charging the card its first payment saved (YooKassa): the charge
   * is made a few days before `currentPeriodEnd` (`renewsAt`), and tried again on the next days if declined.
   */
  renewedHere: boolean;
  /** The saved card it renews with (renewedHere), until the customer removes it. */
  savedMethod: SavedPaymentMethod | null;
}

/** `GET /api/payment-methods`: a card (or wallet) the customer let the store charge again, for the plans it renews. */
export interface SavedPaymentMethod {
  id: string;
  /** "Bank card *4444". */
  title: string;
  createdAt: string;
}

/** `GET /api/transactions`, newest first. */
export interface Transaction {
  id: string;
  subscriptionId: string;
  status: TransactionStatus;
  /** Cents. */
  amount: number;
  /** Cents refunded so far (a partial refund leaves the status as it is). */
  amountRefunded: number;
  currency: string;
  planName: string;
  /** The plan's name in the languages it was translated into when it was bought (`planName` is the English). */
  planNames?: PlanNames;
  renewal: boolean;
  createdAt: string;
  /** How it was paid (a provider's method, or the wallet), or `gift_code`: a gift code was redeemed for it. */
  method: TransactionMethod;
  /** A crypto payment still open: what has been seen so far. */
  crypto?: CryptoProgress;
  /** Paid with a promo code: the code, the price before it, and what it took off. */
  promo?: { code: string; amountBefore: number; discount: number };
  /** Nothing paid: a gift code was redeemed for it. */
  giftCode?: string;
  /** Referral credit that paid part (or all) of it, besides `amount`. */
  credit?: number;
  /** Money put into the wallet (a top-up), not a plan. */
  topUp?: true;
}

/** `POST /api/billing/portal`: the provider's billing portal (update the card, see invoices) for the caller. */
export interface BillingPortalStarted {
  url: string;
}

/** `GET /api/admin/subscriptions`: a subscription with whose it is. */
export interface AdminSubscription extends Subscription {
  userId: string;
  userEmail: string | null;
  vpnAccountUsername: string | null;
  /** Reading it from the provider (the reconcile job); null until its first try. */
  providerRead: ProviderRead | null;
}

/** How reading a live recurring subscription from its provider goes: each is read at least once a day. */
export interface ProviderRead {
  /** The last read that worked. */
  lastReadAt: string | null;
  /** Failed reads in a row (0 once one works); each waits longer before the next try, up to 6 hours. */
  failures: number;
  lastError: string | null;
  nextTryAt: string;
  /** It keeps failing: renewals and cancellations whose webhook was lost are not seen until it works again. */
  failing: boolean;
}

/** `POST /api/admin/subscriptions/:id/cancel`: now (ends the subscription at once) or at the period end. */
export interface AdminCancelSubscription {
  when: 'now' | 'period_end';
}

/** The recurring business at a glance (System tab). MRR: what each active subscription brings in per month as it is charged (monthly: its price; yearly: a twelfth). */
export interface RecurringMetrics {
  activeRecurring: number;
  pastDue: number;
  cancelingAtPeriodEnd: number;
  /** Minor units of `currency` per month, from the subscriptions priced in it. */
  monthlyRecurringRevenue: number;
  /** The store's currency. */
  currency: string;
  /** Live subscriptions whose reads from the provider keep failing, and the latest error. */
  unreadable: number;
  lastReadError: string | null;
  /** Subscriptions priced in another currency (sold before the store changed it): their MRR, per currency, never added in. */
  otherCurrencies: Array<{ currency: string; monthlyRecurringRevenue: number }>;
}

/**
 * Webhook events of one provider's API version that could not be read (System tab): each was refused, so the
 * provider delivers it again. Shown until the provider's invoice or subscription events are read again, or for a
 * week after the last one.
 */
export interface UnreadableWebhookAlert {
  provider: string;
  apiVersion: string;
  lastEventType: string;
  lastEventId: string;
  /** What could not be read, and what to choose instead. */
  reason: string;
  timesSeen: number;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** Where a refund's money goes: back through the provider, into the customer's wallet here, or paid back by hand. */
export const REFUND_DESTINATIONS = ['provider', 'wallet', 'manual'] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];

/** Stripe's refund reasons (what the card network is told). */
export const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** `GET /api/admin/transactions`: a transaction with whose it is and what an admin can do with it. */
export interface AdminTransaction extends Transaction {
  userId: string;
  userEmail: string | null;
  /** Paid through a provider payment that can still be (partly) refunded. */
  refundable: boolean;
  /** Where its refund can go, the default first (Crypto Pay cannot send money back: the wallet, or by hand). */
  refundDestinations: RefundDestination[];
  /** Why it needs review, or the open dispute, in words. */
  note: string | null;
  /** A crypto refund: where the customer claims it (also e-mailed to them). */
  refundClaimUrl: string | null;
}

/** Where a key comes from: the admin's settings, or an environment variable that overrides them. */
export type KeySource = 'settings' | 'env' | null;

/** `GET/PUT /api/admin/payments/card`. The secrets are write-only: only whether each is set comes back. */
export interface CardPaymentSettings {
  enabled: boolean;
  publishableKey: string | null;
  secretKeySet: boolean;
  webhookSecretSet: boolean;
  sources: { publishableKey: KeySource; secretKey: KeySource; webhookSecret: KeySource };
  /** The address to enter in Stripe's dashboard as the webhook endpoint. */
  webhookUrl: string;
}

/** `GET /api/admin/payments/crypto`: the operator's BTCPay Server store; the secrets are write-only. */
export interface CryptoPaymentSettings {
  enabled: boolean;
  serverUrl: string | null;
  storeId: string | null;
  apiKeySet: boolean;
  webhookSecretSet: boolean;
  /** Payment methods are offered by priority, highest first; card payments have 100. */
  priority: number;
  /** The address to enter in the store's Webhooks settings. */
  webhookUrl: string;
}

/** The 54-FZ receipt YooKassa sends with each payment and refund: the VAT code (1–12) and, when needed, the tax system (1–6). */
export interface YookassaReceiptSettings {
  enabled: boolean;
  vatCode: number;
  taxSystemCode: number | null;
}

/** `GET /api/admin/payments/yookassa`: the YooKassa shop; the secret key is write-only. */
export interface YookassaPaymentSettings {
  enabled: boolean;
  shopId: string | null;
  secretKeySet: boolean;
  receipts: YookassaReceiptSettings;
  /** Payment methods are offered by priority, highest first; card payments have 100. */
  priority: number;
  /** The address to enter in the shop's HTTP notifications (Integration → HTTP notifications). */
  webhookUrl: string;
  /** YooKassa takes roubles: it is offered only while the store's currency is RUB. */
  currencySupported: boolean;
  /** What the shop said when its keys were checked: a test shop, and whether it fiscalizes (then receipts must be on). */
  shop: { test: boolean; fiscalization: boolean } | null;
}

/** `GET /api/admin/payments/cryptopay`: the Crypto Pay app; the API token is write-only. */
export interface CryptopayPaymentSettings {
  enabled: boolean;
  network: 'mainnet' | 'testnet';
  apiTokenSet: boolean;
  /** The coins a customer may pay with. */
  assets: string[];
  priority: number;
  /** The address to enter in the app's Webhooks. */
  webhookUrl: string;
  /** Crypto Pay prices invoices in a list of fiat currencies: it is offered only while the store's currency is one of them. */
  currencySupported: boolean;
  /** The app's name as Crypto Pay knows it (read when the token was checked). */
  appName: string | null;
}

/**
 * `GET /api/admin/payments/accounts`: each provider account that took payments (issue 25, item 3). The keys
 * in force are one account; an account switched away from keeps its keys here while its payments need them
 * (webhooks, refunds, renewals). Subscriptions cannot be moved between Stripe accounts: they are ended.
 */
export interface ProviderAccountSummary {
  id: string;
  method: ProviderMethod;
  /** Stripe: the account id (`acct_…`); BTCPay: the server address and store id; YooKassa: the shop id; Crypto Pay: the network and app id. */
  account: string;
  /** The keys in force belong to this account (new checkouts go to it). */
  inForce: boolean;
  /** Recurring subscriptions it still bills (active or past due). */
  liveSubscriptions: number;
  /** Of those, the ones it will charge again (not ending at their period end). */
  renewingSubscriptions: number;
}

/** `POST /api/admin/payments/accounts/:id/end-subscriptions`: what was asked of the account. */
export interface EndAccountSubscriptionsResult {
  account: ProviderAccountSummary;
  /** Subscriptions now ending at their period end. */
  ended: number;
  /** Subscriptions the provider did not answer for (try again). */
  failed: number;
}

/**
 * Where an open crypto payment stands, as the operator's BTCPay Server reports it: `Processing` = paid,
 * waiting for confirmations; `PaidPartial` = some paid, `amountDue` (minor units of the order's
 * currency) still missing.
 */
export interface CryptoProgress {
  status: string;
  additionalStatus: string;
  amountDue: number | null;
  amountPaid: number | null;
}

/** The card provider's fixed priority: crypto with a higher one is offered first. */
export const CARD_PRIORITY = 100;

/** `PUT /api/admin/payments/card`: omitted fields keep their value; `null` clears a key. */
export interface UpdateCardPaymentSettings {
  enabled?: boolean;
  publishableKey?: string | null;
  secretKey?: string | null;
  webhookSecret?: string | null;
}

/** Messages from the spec's catalogue (section 8) and success messages. */
export const BILLING_MESSAGES = {
  notConfigured: 'Payment provider not properly configured',
  cryptoNotImplemented: 'Crypto payments not implemented yet',
  stripeNotInitialized: 'Stripe not initialized',
  checkoutFailed: 'Failed to create payment intent',
  planNotFound: 'Plan not found',
  subscriptionNotFound: 'Subscription not found',
  subscriptionCreated: 'Subscription created successfully!',
  createSubscriptionFailed: 'Failed to create subscription',
  paymentSucceeded: 'Payment successful! Your account is ready.',
  checkStatusFailed: 'Error checking payment status',
  checkStatusFailedDashboard: 'Error checking payment status. Please refresh the page.',
  takingLonger: 'Payment processing is taking longer than expected. Please check your dashboard.',
  transactionsFailed: 'Failed to load transactions',
  stripeSettingsFailed: 'Failed to update Stripe settings',
  paymentFailed: 'The payment did not go through. You have not been charged.',
  paymentExpired: 'The checkout session expired before payment.',
  paymentCancelled: 'Payment cancelled',
  openRenewalUnreachable: 'A renewal payment for this account is still open and could not be closed just now. Try again in a minute.',
  renewalJustPaid: 'A renewal of this account has just been paid, so it was not deleted: its new period is being added. Delete it again if you still want to.',
  renewalFailed: 'The renewal charge did not go through.',
  subscriptionCanceled: 'Auto-renew is off. Your account stays active until the end of the paid period.',
  subscriptionResumed: 'Auto-renew is back on.',
  paidAheadByOneOff:
    'This account is already paid beyond this period by a one-off renewal, so auto-renew cannot be turned back on: it would charge again for days already paid. Renew by hand when that period ends.',
  notRenewing: 'This subscription has already ended, so it cannot be changed.',
  alreadyRenews: 'This account renews automatically; there is nothing to pay now.',
  noBillingAccount: 'There is no card on file yet: billing can be managed after your first recurring payment.',
  portalFailed: 'The billing portal could not be opened just now. Try again in a minute.',
  subscriptionChangeFailed: 'The payment provider could not be reached just now. Try again in a minute.',
  oneOffNotCancelable: 'This plan does not renew automatically, so there is nothing to cancel: it ends with its period.',
  paymentNeedsReview: 'We received your payment, but it needs a check by our team before your account is set up. We will contact you by e-mail.',
  partialPaymentExpired:
    'The invoice expired before it was paid in full, so nothing was set up. What you sent will be refunded: we have e-mailed you about it.',
  priceChanged: 'The price of this plan has just changed. Check it and try again.',
  currencyNotTaken: 'This payment method does not take the currency this store sells in. Choose another one.',
  methodNotSaved: 'This payment method cannot be charged again automatically, so your plan will not renew by itself. Renew it by hand before it ends.',
  savedMethodNotFound: 'Saved card not found.',
  noSavedMethod: 'There is no saved card to renew with. Renew by hand, or buy the plan again to save a card.',
  starsInBotOnly: 'Telegram Stars are paid in the Telegram bot only. Choose another way to pay here.',
  starsNotSold: 'This plan is not sold for Telegram Stars. Choose another way to pay.',
  starsUnavailable: 'Payments in Telegram Stars are not available right now.',
  trialPaid: 'This trial has a price: start it with a payment from your dashboard.',
  trialInProgress: 'The payment for your trial is still open: finish it, or try again once it has closed (within an hour).',
  trialTaken: 'Your trial had already been used, so this payment was given back.',
} as const;

/** The return pages poll every 2 s and give up after 30 s (spec section 9). */
export const PAYMENT_POLL_INTERVAL_MS = 2000;
export const PAYMENT_POLL_TIMEOUT_MS = 30_000;

/** `GET /api/admin/payments/revenue`: money taken through one provider in one currency (minor units). */
export interface ProviderRevenue {
  /** How it was paid (the provider's method). */
  method: ProviderMethod;
  currency: string;
  /** Payments that took money (paid, later refunded or disputed included). */
  payments: number;
  amount: number;
  refunded: number;
  /** What was taken less what was refunded. */
  net: number;
}

export interface AdminRevenue {
  days: number;
  since: string;
  /** Largest net first. Orders paid from the balance are not here: their money came in with the top-up. */
  rows: ProviderRevenue[];
}
