import Stripe from 'stripe';

/** Only what the server asks of Stripe: Checkout Sessions and webhook signatures. */
export interface StripeGateway {
  createCheckoutSession(secretKey: string, params: Stripe.Checkout.SessionCreateParams, idempotencyKey: string): Promise<Stripe.Checkout.Session>;
  retrieveCheckoutSession(secretKey: string, sessionId: string): Promise<Stripe.Checkout.Session>;
  /** Throws unless `signature` is Stripe's signature of exactly `rawBody` with `webhookSecret`, made within 5 minutes. */
  verifyEvent(rawBody: Buffer, signature: string, webhookSecret: string): Stripe.Event;
}

const REQUEST_TIMEOUT_MS = 15_000;

/** Where the SDK sends requests: Stripe itself, or `STRIPE_API_URL` (the fake Stripe in tests and demos). */
function hostOptions(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** The real Stripe SDK, one client per secret key (the admin may change the key at any time). */
export function createStripeGateway(apiUrl: string | undefined): StripeGateway {
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

  return {
    createCheckoutSession: (secretKey, params, idempotencyKey) => client(secretKey).checkout.sessions.create(params, { idempotencyKey }),
    retrieveCheckoutSession: (secretKey, sessionId) => client(secretKey).checkout.sessions.retrieve(sessionId),
    verifyEvent: (rawBody, signature, webhookSecret) => Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret),
  };
}
