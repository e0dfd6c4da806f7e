/**
 * Telegram Stars subscriptions (Bot API 8.0: createInvoiceLink's `subscription_period`, SuccessfulPayment's
 * `is_recurring` / `is_first_recurring` / `subscription_expiration_date`, editUserStarSubscription): what the driver
 * and the bot's payment handler say about one, in our terms. Telegram keeps no subscription a bot can read: a
 * subscription is its payments, listed in the bot's Star transactions with the invoice's payload and
 * `subscription_period`, and it is named by the user who pays it and its first payment's charge id (what
 * editUserStarSubscription takes).
 */
import { STARS_CURRENCY } from '../../../../shared/billing-schemas.js';
import { PaymentProviderError, PROVIDER_CANNOT, type InvoiceState, type RecurringPriceSpec, type RecurringState } from '../payment-driver.js';

/** Telegram's one subscription period (createInvoiceLink: "Currently, it must always be 2592000 (30 days) if specified"). */
export const STARS_SUBSCRIPTION_SECONDS = 2_592_000;

/** What ensureRecurringPrice answers for a monthly plan: Telegram keeps no prices, each invoice names its period itself. */
export const STARS_MONTHLY_PRICE = `xtr:${STARS_SUBSCRIPTION_SECONDS}`;

/**
 * Telegram charges a renewal as the period ends. One the bot's transactions do not list this long after the end is not
 * coming (auto-renew was turned off, by the bot or in Telegram, or the customer had too few Stars): the subscription
 * has ended. Telegram retries nothing, so there is no past-due time to wait through.
 */
export const RENEWAL_WAIT_SECONDS = 6 * 3600;

/** `<Telegram user id>:<charge id of the first payment>`: the provider reference our subscription keeps. */
export const starsSubscriptionRef = (userId: number, firstChargeId: string) => `${userId}:${firstChargeId}`;

export function parseStarsSubscriptionRef(ref: string): { userId: number; chargeId: string } | null {
  const match = /^(\d{1,20}):(\S+)$/.exec(ref);
  return match ? { userId: Number(match[1]), chargeId: match[2]! } : null;
}

/** One payment of a subscription (unix times). */
export interface SubscriptionCharge {
  chargeId: string;
  amount: number;
  date: number;
  period: number;
}

const invoiceOf = (ref: string, charge: SubscriptionCharge, first: boolean, start: number, end: number): InvoiceState => ({
  invoiceId: charge.chargeId,
  subscriptionRef: ref,
  orderRef: null,
  outcome: 'paid',
  first,
  amountDue: charge.amount,
  amountPaid: charge.amount,
  currency: STARS_CURRENCY,
  periodStart: new Date(start * 1000),
  periodEnd: new Date(end * 1000),
  paymentRef: charge.chargeId,
  nextAttemptAt: null,
});

/**
 * The subscription's invoices, newest first, from its payments oldest first: the first pays from when it was made,
 * each renewal from where the period before it ends (or from when it was paid, after a gap), for one period.
 */
export function invoicesOf(ref: string, charges: SubscriptionCharge[]): InvoiceState[] {
  let end = 0;
  const invoices = charges.map((charge, index) => {
    const start = Math.max(end, charge.date);
    end = start + charge.period;
    return invoiceOf(ref, charge, index === 0, start, end);
  });
  return invoices.reverse();
}

/**
 * The subscription as its payments show it at `now`: live until its last period ends, and ended once a renewal has
 * not come in RENEWAL_WAIT_SECONDS after that. Whether auto-renew is on is not something Telegram lets a bot read.
 */
export function subscriptionStateOf(ref: string, userId: number, invoices: InvoiceState[], now: Date): RecurringState {
  const end = invoices[0]?.periodEnd ?? null;
  const ended = end !== null && now.getTime() >= end.getTime() + RENEWAL_WAIT_SECONDS * 1000;
  return {
    subscriptionRef: ref,
    customerRef: String(userId),
    orderRef: null,
    status: ended ? 'canceled' : 'active',
    cancelAtPeriodEnd: null,
    canceledAt: ended ? end : null,
    currentPeriodEnd: end,
    observedAt: now,
  };
}

/** A monthly plan's "price" is the subscription invoice itself (nothing is kept at Telegram); any other is refused. */
export function starsRecurringPrice(spec: RecurringPriceSpec): string {
  const monthly = spec.interval.unit === 'month' && spec.interval.count === 1;
  if (!monthly || spec.currency !== STARS_CURRENCY)
    throw new PaymentProviderError('Telegram Stars subscriptions are monthly (30 days) and in Stars', PROVIDER_CANNOT, true);
  return STARS_MONTHLY_PRICE;
}

/**
 * The subscription as Telegram was just told to have it: auto-renew off or allowed back on (a subscription that can be
 * changed is live; its end, when no renewal comes, is the reconcile's to find), or `ended` now.
 */
export function editedSubscriptionState(ref: string, userId: number, at: Date, change: { cancelAtPeriodEnd: boolean } | 'ended'): RecurringState {
  const ended = change === 'ended';
  return {
    subscriptionRef: ref,
    customerRef: String(userId),
    orderRef: null,
    status: ended ? 'canceled' : 'active',
    cancelAtPeriodEnd: ended ? false : change.cancelAtPeriodEnd,
    canceledAt: ended ? at : null,
    currentPeriodEnd: null,
    observedAt: at,
  };
}
