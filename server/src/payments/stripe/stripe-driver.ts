import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutOrder,
  type CheckoutState,
  type PaymentDriver,
  type PaymentEvent,
  type RefundRequest,
  type RefundResult,
} from '../payment-driver.js';
import { calling, stripeLocale } from './stripe-calls.js';
import { couponMethods } from './stripe-coupons.js';
import { checkoutStateOf, paymentEventOf } from './stripe-events.js';
import { recurringMethods, type RecurringOptions } from './stripe-recurring.js';

export interface StripeCredentials {
  secretKey: string;
  /** Without it no webhook can be verified (card payments cannot be enabled without it). */
  webhookSecret: string | null;
}

const REQUEST_TIMEOUT_MS = 15_000;

/** Where the SDK sends requests: Stripe itself, or `STRIPE_API_URL` (the fake Stripe in tests and demos). */
function hostOptions(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

function sessionParams(order: CheckoutOrder, couponId: string | null): Stripe.Checkout.SessionCreateParams {
  const language = order.locale && stripeLocale(order.locale);
  const params = order.recurring ? subscriptionSessionParams(order, order.recurring) : paymentSessionParams(order);
  return { ...params, ...(language ? { locale: language } : {}), ...(couponId ? { discounts: [{ coupon: couponId }] } : {}) };
}

/** The order's price before a promo code and referral credit. */
const priceBefore = (order: CheckoutOrder) => order.discount?.amountBefore ?? order.amount + (order.credit ?? 0);

function paymentSessionParams(order: CheckoutOrder): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    // Card only: a bank debit settles days later, and a paid-then-failed payment would be a
    // provisioned account nobody paid for.
    allowed_payment_method_types: ['card'],
    line_items: [
      {
        quantity: 1,
        // With a promo code or credit, the price before them: the session's coupon takes them off, where the customer sees it.
        price_data: { currency: order.currency, unit_amount: priceBefore(order), product_data: { name: order.productName, description: order.description } },
      },
    ],
    // Without an address (a customer from the Telegram bot), Stripe's page asks for one.
    ...(order.customerEmail ? { customer_email: order.customerEmail } : {}),
    client_reference_id: order.customerRef,
    success_url: order.successUrl.replace('{CHECKOUT_ID}', '{CHECKOUT_SESSION_ID}'),
    cancel_url: order.cancelUrl,
    expires_at: Math.floor(order.expiresAt.getTime() / 1000),
    metadata: { ...order.metadata, transaction_id: order.orderId },
    // Refunds and disputes name the PaymentIntent: it carries our transaction too.
    payment_intent_data: { metadata: { transaction_id: order.orderId } },
  };
}

/** A recurring plan: the customer subscribes to the plan's price; the subscription carries our records' ids. */
function subscriptionSessionParams(order: CheckoutOrder, recurring: NonNullable<CheckoutOrder['recurring']>): Stripe.Checkout.SessionCreateParams {
  const metadata = { ...order.metadata, transaction_id: order.orderId };
  return {
    mode: 'subscription',
    allowed_payment_method_types: ['card'],
    customer: recurring.customerRef,
    line_items: [{ price: recurring.priceRef, quantity: 1 }],
    client_reference_id: order.customerRef,
    success_url: order.successUrl.replace('{CHECKOUT_ID}', '{CHECKOUT_SESSION_ID}'),
    cancel_url: order.cancelUrl,
    expires_at: Math.floor(order.expiresAt.getTime() / 1000),
    metadata,
    // The line item is the plan's Stripe product, named once for every customer (in English): the name in
    // the customer's language goes on the subscription, and above the button when it is not English.
    subscription_data: { metadata, description: order.productName },
    ...(order.locale && order.locale !== 'en' ? { custom_text: { submit: { message: `${order.productName} · ${order.description}` } } } : {}),
  };
}

/**
 * What payment_customers were keyed by before accounts were identified (a fingerprint of the secret key):
 * rows under it are moved to the account's id when the key's account is first read (provider-accounts).
 */
export const legacyCustomerKeyOf = (secretKey: string) => `stripe:${createHash('sha256').update(secretKey).digest('hex').slice(0, 24)}`;

/**
 * The Stripe driver factory: one SDK client per secret key (the admin may change the key at any
 * time), each bound into a PaymentDriver with the webhook secret.
 */
export function createStripeDrivers(
  apiUrl: string | undefined,
  recurring: RecurringOptions = { testClocks: false },
): (credentials: StripeCredentials) => PaymentDriver {
  const options: Stripe.StripeConfig = { ...hostOptions(apiUrl), maxNetworkRetries: 2, timeout: REQUEST_TIMEOUT_MS, appInfo: { name: 'vpn-storefront' } };

  const clients = new Map<
    string,
    { stripe: Stripe; billing: ReturnType<typeof recurringMethods>; coupons: ReturnType<typeof couponMethods>; account?: Promise<string> }
  >();

  function client(secretKey: string) {
    let entry = clients.get(secretKey);
    if (!entry) {
      if (clients.size > 4) clients.clear();
      const stripe = new Stripe(secretKey, options);
      entry = { stripe, billing: recurringMethods(stripe, secretKey, recurring), coupons: couponMethods(stripe) };
      clients.set(secretKey, entry);
    }
    return entry;
  }

  return ({ secretKey, webhookSecret }) => {
    const entry = client(secretKey);
    const { stripe, billing } = entry;
    const { readInvoice, ...billingMethods } = billing;

    /** A subscription checkout that is paid: its first invoice, with the payment, says what was bought. */
    async function withInvoice(state: CheckoutState, session: Stripe.Checkout.Session): Promise<CheckoutState> {
      const invoiceId = typeof session.invoice === 'string' ? session.invoice : (session.invoice?.id ?? null);
      if (session.mode !== 'subscription' || state.outcome !== 'paid' || !invoiceId) return state;
      return { ...state, invoice: await readInvoice(invoiceId) };
    }

    /**
     * A paid checkout's card (its charge's fingerprint), read from Stripe. Only the referral programme's checks
     * use it: if Stripe cannot be asked, the payment is confirmed without it.
     */
    async function withCard(state: CheckoutState): Promise<CheckoutState> {
      const paymentRef = state.paymentRef ?? state.invoice?.paymentRef ?? null;
      if (state.outcome !== 'paid' || !paymentRef?.startsWith('pi_')) return state;
      try {
        const intent = await stripe.paymentIntents.retrieve(paymentRef, { expand: ['latest_charge'] });
        const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
        return { ...state, cardFingerprint: charge?.payment_method_details?.card?.fingerprint ?? null };
      } catch {
        return state;
      }
    }

    /** A paid event, completed with what it does not carry: a checkout's card; an invoice's payment (not named since basil, 2025-03-31). */
    async function completed(event: PaymentEvent | null): Promise<PaymentEvent | null> {
      if (event?.kind === 'checkout') return { kind: 'checkout', checkout: await withCard(event.checkout) };
      if (event?.kind !== 'invoice' || event.invoice.outcome !== 'paid' || event.invoice.paymentRef) return event;
      const invoice = await readInvoice(event.invoice.invoiceId);
      return { kind: 'invoice', invoice: { ...event.invoice, paymentRef: invoice?.paymentRef ?? null } };
    }

    return {
      name: 'stripe',
      capabilities: { refunds: true, recurring: 'provider_subscriptions' },

      /** `GET /v1/account`: the account's id does not change when its keys are rolled. Read once per key; a failure is not kept. */
      async ping() {
        await calling('Reading the account', () => stripe.accounts.retrieveCurrent());
      },
      identifyAccount() {
        entry.account ??= calling('Reading the account', () => stripe.accounts.retrieveCurrent()).then((account) => account.id);
        entry.account.catch(() => {
          entry.account = undefined;
        });
        return entry.account;
      },
      ...billingMethods,

      async startCheckout(order) {
        const couponId =
          order.credit && !order.recurring
            ? await entry.coupons.ensureOrderCoupon({
                orderId: order.orderId,
                amountOff: priceBefore(order) - order.amount,
                currency: order.currency,
                code: order.discount?.code ?? null,
              })
            : order.discount
              ? await entry.coupons.ensureCoupon(order.discount, order.currency)
              : null;
        const session = await calling('Creating the Checkout Session', () =>
          stripe.checkout.sessions.create(sessionParams(order, couponId), { idempotencyKey: `checkout:${order.orderId}` }),
        );
        if (!session.url) throw new PaymentProviderError('Stripe answered a Checkout Session without a URL');
        return { checkoutId: session.id, url: session.url, ...(session.amount_total !== null ? { amountTotal: session.amount_total } : {}) };
      },

      async readCheckout(checkoutId) {
        const session = await calling('Reading the Checkout Session', () => stripe.checkout.sessions.retrieve(checkoutId));
        return withCard(await withInvoice(checkoutStateOf(session), session));
      },

      async expireCheckout(checkoutId) {
        const session = await calling('Reading the Checkout Session', () => stripe.checkout.sessions.retrieve(checkoutId));
        if (session.status !== 'open') return checkoutStateOf(session);
        return checkoutStateOf(await calling('Expiring the Checkout Session', () => stripe.checkout.sessions.expire(checkoutId)));
      },

      async verifyWebhook(rawBody, headers) {
        const signature = headers['stripe-signature'];
        if (!webhookSecret || typeof signature !== 'string') throw new WebhookSignatureError();
        let event: Stripe.Event;
        try {
          event = Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
        } catch {
          throw new WebhookSignatureError();
        }
        // Throws UnreadableEventError for an invoice or subscription in a shape it cannot read.
        const ours = await completed(paymentEventOf(event));
        const versioned = ours?.kind === 'invoice' || ours?.kind === 'subscription';
        return { id: event.id, type: event.type, event: ours, ...(versioned && event.api_version ? { apiVersion: event.api_version } : {}) };
      },

      async refund(request: RefundRequest) {
        // Stripe forgets idempotency keys after a day: a retry first looks for the refund carrying our id.
        if (request.retry) {
          const made = await calling('Looking for the refund', () => stripe.refunds.list({ payment_intent: request.paymentRef, limit: 100 }));
          const found = made.data.find((refund) => refund.metadata?.refund_id === request.refundRef);
          if (found) return { refundId: found.id, amount: found.amount, status: refundStatusOf(found) };
        }
        const refund = await calling('Refunding the payment', () =>
          stripe.refunds.create(
            {
              payment_intent: request.paymentRef,
              ...(request.amount !== undefined ? { amount: request.amount } : {}),
              ...(request.reason ? { reason: request.reason } : {}),
              metadata: { ...request.metadata, refund_id: request.refundRef },
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        );
        return { refundId: refund.id, amount: refund.amount, status: refundStatusOf(refund) };
      },
    };
  };
}

/** Stripe's refund statuses as ours: requires_action and canceled are not done, so they count as pending until an event settles them. */
function refundStatusOf(refund: Stripe.Refund): RefundResult['status'] {
  return refund.status === 'succeeded' || refund.status === 'failed' ? refund.status : 'pending';
}

export type StripeDriverFactory = ReturnType<typeof createStripeDrivers>;
