import { Api, GrammyError, HttpError } from 'grammy';
import type { StarTransaction } from 'grammy/types';
import { STARS_CURRENCY } from '../../../../shared/billing-schemas.js';
import { cannot } from '../driver-parts.js';
import {
  PaymentProviderError,
  PROVIDER_CANNOT,
  WebhookSignatureError,
  type CheckoutOrder,
  type CheckoutState,
  type PaymentDriver,
  type RecurringPriceSpec,
  type RecurringState,
  type RefundRequest,
  type RefundResult,
  type StartedCheckout,
} from '../payment-driver.js';
import {
  editedSubscriptionState,
  invoicesOf,
  parseStarsSubscriptionRef,
  STARS_MONTHLY_PRICE,
  starsRecurringPrice,
  STARS_SUBSCRIPTION_SECONDS,
  starsSubscriptionRef,
  subscriptionStateOf,
  type SubscriptionCharge,
} from './stars-subscriptions.js';

/**
 * Telegram Stars (Bot API "Payments in Telegram Stars"): the bot that takes them is the provider account (the Stars
 * are the bot's), and its token the key. An order is an invoice link (`createInvoiceLink`, currency XTR, no provider
 * token, one price) whose payload is our transaction id. Telegram keeps no invoice to read back: a payment is found in
 * the bot's Star transactions (`getStarTransactions`), where its id is the `telegram_payment_charge_id` that refunds
 * name. The payments themselves reach us as bot updates (pre_checkout_query, successful_payment), never as a webhook
 * of this driver; they are applied as any provider's checkout is (server/src/modules/telegram/bot-payments.ts).
 *
 * Telegram cannot close an invoice link: an order past its time is refused at the pre-checkout query, which Telegram
 * asks before it takes the Stars, so a closed order is never paid.
 *
 * A monthly plan is a Telegram Stars subscription (its order's `recurring`): the invoice link charges every 30 days
 * until auto-renew is turned off (editUserStarSubscription, or the customer in Telegram). A subscription is named by
 * its payer and first charge (stars-subscriptions.ts) and read back from its payments; Telegram cannot move a charge,
 * credit a balance, or show a billing page, so those methods refuse.
 */

export interface StarsDriverOptions {
  token: string;
  /** TELEGRAM_API_URL (a self-hosted Bot API server, or the fake in tests). */
  apiRoot: string;
  /** Pages of 100 Star transactions read at most when looking for one payment. */
  maxPages?: number;
  /** The app's clock: an order's time is counted by it. */
  now?: () => Date;
}

/** Telegram's limits on an invoice's texts (Bot API, createInvoiceLink). */
const TITLE_MAX = 32;
const DESCRIPTION_MAX = 255;
const PAGE = 100;
/**
 * A payment Telegram approved at the pre-checkout query arrives seconds later; the order stays open this long after
 * its time before the follow-up closes it, so an approved payment never finds its order closed.
 */
const CLOSE_AFTER_SECONDS = 15 * 60;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** `<transaction id>.<unix time the order closes>`: Telegram keeps nothing of an invoice link, so its id carries its end. */
export function starsCheckoutId(orderId: string, expiresAt: Date): string {
  return `${orderId}.${Math.floor(expiresAt.getTime() / 1000)}`;
}

export function parseStarsCheckoutId(checkoutId: string): { orderId: string; closesAt: Date } | null {
  const match = /^(.+)\.(\d+)$/.exec(checkoutId);
  return match ? { orderId: match[1]!, closesAt: new Date(Number(match[2]) * 1000) } : null;
}

/** A payment from a user to the bot (incoming, from a user), and whether a refund of it is listed too. */
interface StarCharge {
  chargeId: string;
  userId: number;
  amount: number;
  payload: string;
  /** Unix time. */
  date: number;
  /** A subscription's payment: its period in seconds; null for a payment made once. */
  period: number | null;
  refunded: boolean;
}

const subscriptionCharge = (charge: StarCharge): SubscriptionCharge => ({
  chargeId: charge.chargeId,
  amount: charge.amount,
  date: charge.date,
  period: charge.period ?? STARS_SUBSCRIPTION_SECONDS,
});

function refOf(subscriptionRef: string): { userId: number; chargeId: string } {
  const named = parseStarsSubscriptionRef(subscriptionRef);
  if (!named) throw new PaymentProviderError(`Not a Telegram Stars subscription: ${subscriptionRef}`, null, true);
  return named;
}

function failure(err: unknown, doing: string): PaymentProviderError {
  if (err instanceof GrammyError) return new PaymentProviderError(`Telegram refused ${doing}: ${err.description}`, err.description, err.error_code < 500);
  if (err instanceof HttpError) return new PaymentProviderError(`Telegram could not be reached for ${doing}: ${err.message}`);
  return new PaymentProviderError(`${doing} failed: ${String(err)}`);
}

async function call<T>(doing: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw failure(err, doing);
  }
}

function stateOf(checkoutId: string, orderId: string, charge: StarCharge | null, closed: boolean): CheckoutState {
  if (!charge) return { checkoutId, orderId, outcome: closed ? 'expired' : 'open', amountPaid: null, currency: null, paymentRef: null, expiredUnpaid: closed };
  const paid: CheckoutState = { checkoutId, orderId, outcome: 'paid', amountPaid: charge.amount, currency: STARS_CURRENCY, paymentRef: charge.chargeId };
  if (charge.period === null) return paid;
  // The first payment of a subscription (the order's payload is carried by its renewals too; the oldest is the first).
  const ref = starsSubscriptionRef(charge.userId, charge.chargeId);
  return { ...paid, subscriptionRef: ref, customerRef: String(charge.userId), invoice: invoicesOf(ref, [subscriptionCharge(charge)])[0]! };
}

export function createStarsDriver(options: StarsDriverOptions): PaymentDriver {
  const api = new Api(options.token, { apiRoot: options.apiRoot, timeoutSeconds: 30 });
  const maxPages = options.maxPages ?? 50;
  const botId = options.token.split(':')[0]!;
  const now = options.now ?? (() => new Date());

  /** The payments to the bot its Star transactions list (every page, at most maxPages of them), oldest first. */
  async function readCharges(): Promise<StarCharge[]> {
    const charges = new Map<string, StarCharge>();
    const refundedIds = new Set<string>();
    const take = (transaction: StarTransaction) => {
      const source = transaction.source;
      if (source?.type === 'user' && 'invoice_payload' in source && source.invoice_payload !== undefined)
        charges.set(transaction.id, {
          chargeId: transaction.id,
          userId: source.user.id,
          amount: transaction.amount,
          payload: source.invoice_payload,
          date: transaction.date,
          period: source.subscription_period ?? null,
          refunded: false,
        });
      if (transaction.receiver?.type === 'user') refundedIds.add(transaction.id);
    };
    for (let page = 0; page < maxPages; page += 1) {
      const { transactions } = await call('reading the Star transactions', () => api.getStarTransactions({ offset: page * PAGE, limit: PAGE }));
      transactions.forEach(take);
      if (transactions.length < PAGE) break;
    }
    return [...charges.values()].map((charge) => ({ ...charge, refunded: refundedIds.has(charge.chargeId) }));
  }

  const findCharge = async (found: (charge: StarCharge) => boolean): Promise<StarCharge | null> => (await readCharges()).find(found) ?? null;

  /** A subscription's payments, oldest first: its first, and the renewals its payer made with the same invoice. */
  async function readSubscription(subscriptionRef: string): Promise<{ subscription: RecurringState; invoices: ReturnType<typeof invoicesOf> }> {
    const named = refOf(subscriptionRef);
    const charges = await readCharges();
    const first = charges.find((charge) => charge.chargeId === named.chargeId && charge.userId === named.userId && charge.period !== null);
    if (!first) throw new PaymentProviderError(`Telegram lists no Stars subscription started by ${named.chargeId}`, 'CHARGE_NOT_FOUND', true);
    const renewals = charges.filter(
      (charge) => charge.userId === first.userId && charge.payload === first.payload && charge.period !== null && charge.date >= first.date,
    );
    const invoices = invoicesOf(subscriptionRef, renewals.map(subscriptionCharge));
    return { subscription: subscriptionStateOf(subscriptionRef, named.userId, invoices, now()), invoices };
  }

  /** Auto-renew off (true) or allowed back on (false) at Telegram. */
  async function editSubscription(subscriptionRef: string, canceled: boolean): Promise<{ userId: number; chargeId: string }> {
    const named = refOf(subscriptionRef);
    await call('changing the subscription', () => api.editUserStarSubscription(named.userId, named.chargeId, canceled));
    return named;
  }

  async function readCheckout(checkoutId: string, closeNow = false): Promise<CheckoutState> {
    const parsed = parseStarsCheckoutId(checkoutId);
    if (!parsed) throw new PaymentProviderError(`Not a Telegram Stars checkout: ${checkoutId}`, null, true);
    const charge = await findCharge((candidate) => candidate.payload === parsed.orderId);
    const closed = closeNow || now().getTime() > parsed.closesAt.getTime() + CLOSE_AFTER_SECONDS * 1000;
    return stateOf(checkoutId, parsed.orderId, charge, closed);
  }

  return {
    name: 'telegram_stars',
    capabilities: { refunds: true, recurring: 'provider_subscriptions' },

    // The bot's id is the token's first part: the same bot after its token is revoked and issued again.
    identifyAccount: async () => `bot:${botId}`,

    async ping() {
      await call('checking the bot', () => api.getMe());
    },

    async startCheckout(order: CheckoutOrder): Promise<StartedCheckout> {
      if (order.currency !== STARS_CURRENCY) throw new PaymentProviderError(`Telegram Stars take orders in Stars, not ${order.currency}`, null, true);
      if (order.recurring && order.recurring.priceRef !== STARS_MONTHLY_PRICE)
        throw new PaymentProviderError(`Telegram Stars subscriptions renew every 30 days, not as ${order.recurring.priceRef}`, PROVIDER_CANNOT, true);
      const title = clip(order.productName, TITLE_MAX);
      const url = await call('creating the invoice', () =>
        api.createInvoiceLink(
          title,
          clip(order.description || order.productName, DESCRIPTION_MAX),
          order.orderId,
          '',
          'XTR',
          [{ label: title, amount: order.amount }],
          // A subscription: whoever pays the link is charged again every period (nobody is the customer before that).
          order.recurring ? { subscription_period: STARS_SUBSCRIPTION_SECONDS } : undefined,
        ),
      );
      // The order's time, counted on the app's clock from now (as its rows were: their pre-checkout check counts the same hour).
      const closesAt = new Date(now().getTime() + (order.expiresAt.getTime() - Date.now()));
      return { checkoutId: starsCheckoutId(order.orderId, closesAt), url, amountTotal: order.amount };
    },

    readCheckout: (checkoutId) => readCheckout(checkoutId),
    // The link cannot be closed at Telegram: the order is closed here, and the pre-checkout query refuses it from then on.
    expireCheckout: (checkoutId) => readCheckout(checkoutId, true),

    verifyWebhook: () => Promise.reject(new WebhookSignatureError('Telegram Stars payments arrive as bot updates, not as webhooks of their own.')),

    async refund(request: RefundRequest): Promise<RefundResult> {
      const charge = await findCharge((candidate) => candidate.chargeId === request.paymentRef);
      if (!charge) throw new PaymentProviderError(`Telegram lists no Stars payment ${request.paymentRef}`, 'CHARGE_NOT_FOUND', true);
      if (request.amount !== undefined && request.amount !== charge.amount)
        throw new PaymentProviderError('Telegram refunds a Stars payment in full only', null, true);
      if (!charge.refunded) {
        try {
          await api.refundStarPayment(charge.userId, charge.chargeId);
        } catch (err) {
          // Refunded already (an earlier attempt whose answer was lost): the Stars are back with the customer.
          if (!(err instanceof GrammyError && /CHARGE_ALREADY_REFUNDED/.test(err.description))) throw failure(err, 'refunding the Stars');
        }
      }
      return { refundId: `stars_refund_${charge.chargeId}`, amount: charge.amount, status: 'succeeded' };
    },

    ensureRecurringPrice: async (spec: RecurringPriceSpec) => starsRecurringPrice(spec),

    readSubscription,

    async setCancelAtPeriodEnd(subscriptionRef: string, cancel: boolean): Promise<RecurringState> {
      const named = await editSubscription(subscriptionRef, cancel);
      return editedSubscriptionState(subscriptionRef, named.userId, now(), { cancelAtPeriodEnd: cancel });
    },

    // Telegram ends nothing before its period is over: auto-renew goes off, and what was paid runs on our side as it does.
    async cancelNow(subscriptionRef: string): Promise<RecurringState> {
      const named = await editSubscription(subscriptionRef, true);
      return editedSubscriptionState(subscriptionRef, named.userId, now(), 'ended');
    },

    createCustomer: cannot('Telegram Stars have no customers: whoever pays an invoice link subscribes'),
    setCustomerLanguage: cannot('Telegram Stars have no customers: Telegram writes to its users in their own language'),
    creditCustomer: cannot('Telegram Stars keep no balance to credit'),
    deferNextCharge: cannot('Telegram charges a Stars subscription every 30 days: its next charge cannot be moved'),
    openBillingPortal: cannot('Telegram Stars have no billing page: subscriptions are managed in Telegram'),
  };
}
