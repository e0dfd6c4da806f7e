import Stripe from 'stripe';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutOrder,
  type PaymentDriver,
  type RefundRequest,
} from '../payment-driver.js';
import { checkoutStateOf, paymentEventOf } from './stripe-events.js';

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

/** Stripe's errors as ours: a 4xx means the request itself was refused. */
async function calling<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) {
      const status = err.statusCode ?? 0;
      throw new PaymentProviderError(`${what}: ${err.message}`, err.code ?? null, status >= 400 && status < 500 && status !== 429);
    }
    throw new PaymentProviderError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function sessionParams(order: CheckoutOrder): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    // Card only: a bank debit settles days later, and a paid-then-failed payment would be a
    // provisioned account nobody paid for.
    allowed_payment_method_types: ['card'],
    line_items: [{
      quantity: 1,
      price_data: { currency: order.currency, unit_amount: order.amount, product_data: { name: order.productName, description: order.description } },
    }],
    customer_email: order.customerEmail,
    client_reference_id: order.customerRef,
    success_url: order.successUrl.replace('{CHECKOUT_ID}', '{CHECKOUT_SESSION_ID}'),
    cancel_url: order.cancelUrl,
    expires_at: Math.floor(order.expiresAt.getTime() / 1000),
    metadata: { ...order.metadata, transaction_id: order.orderId },
    // Refunds and disputes name the PaymentIntent: it carries our transaction too.
    payment_intent_data: { metadata: { transaction_id: order.orderId } },
  };
}

/**
 * The Stripe driver factory: one SDK client per secret key (the admin may change the key at any
 * time), each bound into a PaymentDriver with the webhook secret.
 */
export function createStripeDrivers(apiUrl: string | undefined): (credentials: StripeCredentials) => PaymentDriver {
  const clients = new Map<string, Stripe>();
  const options: Stripe.StripeConfig = { ...hostOptions(apiUrl), maxNetworkRetries: 2, timeout: REQUEST_TIMEOUT_MS, appInfo: { name: 'vpn-storefront' } };

  function client(secretKey: string): Stripe {
    let stripe = clients.get(secretKey);
    if (!stripe) {
      if (clients.size > 4) clients.clear();
      stripe = new Stripe(secretKey, options);
      clients.set(secretKey, stripe);
    }
    return stripe;
  }

  return ({ secretKey, webhookSecret }) => {
    const stripe = client(secretKey);
    return {
      name: 'stripe',

      async startCheckout(order) {
        const session = await calling('Creating the Checkout Session', () =>
          stripe.checkout.sessions.create(sessionParams(order), { idempotencyKey: `checkout:${order.orderId}` }));
        if (!session.url) throw new PaymentProviderError('Stripe answered a Checkout Session without a URL');
        return { checkoutId: session.id, url: session.url };
      },

      async readCheckout(checkoutId) {
        return checkoutStateOf(await calling('Reading the Checkout Session', () => stripe.checkout.sessions.retrieve(checkoutId)));
      },

      async expireCheckout(checkoutId) {
        const session = await calling('Reading the Checkout Session', () => stripe.checkout.sessions.retrieve(checkoutId));
        if (session.status !== 'open') return checkoutStateOf(session);
        return checkoutStateOf(await calling('Expiring the Checkout Session', () => stripe.checkout.sessions.expire(checkoutId)));
      },

      verifyWebhook(rawBody, headers) {
        const signature = headers['stripe-signature'];
        if (!webhookSecret || typeof signature !== 'string') throw new WebhookSignatureError();
        let event: Stripe.Event;
        try {
          event = Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
        } catch {
          throw new WebhookSignatureError();
        }
        return { id: event.id, type: event.type, event: paymentEventOf(event) };
      },

      async refund(request: RefundRequest) {
        const refund = await calling('Refunding the payment', () =>
          stripe.refunds.create({
            payment_intent: request.paymentRef,
            ...(request.amount !== undefined ? { amount: request.amount } : {}),
            ...(request.reason ? { reason: request.reason } : {}),
            metadata: request.metadata,
          }, { idempotencyKey: request.idempotencyKey }));
        const status = refund.status === 'succeeded' || refund.status === 'failed' ? refund.status : 'pending';
        return { refundId: refund.id, amount: refund.amount, status };
      },
    };
  };
}

export type StripeDriverFactory = ReturnType<typeof createStripeDrivers>;
