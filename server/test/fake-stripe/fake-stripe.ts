import type { IncomingMessage } from 'node:http';
import Stripe from 'stripe';
import { serveFake } from '../fake-http.js';
import { checkApiVersion, eventInVersion, type LegacyPaymentLookup } from './api-versions.js';
import { billingHandle } from './billing-handle.js';
import { createBillingPortal, handlePortalPage } from './billing-portal.js';
import { routeBilling } from './billing-routes.js';
import { createBilling } from './billing.js';
import { handleCheckoutPage } from './checkout-page-route.js';
import { createIdempotencyStore } from './idempotency.js';
import { handleTestClockPage } from './test-clock-page.js';
import { createCheckoutSessions } from './checkout-sessions.js';
import { decodeForm, FormDecodeError, type FormHash } from './form-body.js';
import { retrieveParams } from './form-params.js';
import type { FakeStripe, FakeStripeDelivery, FakeStripeOptions, FakeStripeRequest } from './handle-types.js';
import { apiKeyOf, header, json, pageNotFound, readBody, safeDecode, type ApiContext, type HttpAnswer } from './http.js';
import { createPaymentLedger, type EmitEvent } from './payment-ledger.js';
import { routePayments } from './payment-routes.js';
import { routeCheckoutSessions } from './session-routes.js';
import { authenticationError, noSuch, StripeApiError } from './stripe-errors.js';
import { nowSeconds, stripeId } from './stripe-ids.js';
import { eventPayload, newEvent, postWebhook, signPayload, type StripeEventObject } from './webhooks.js';

export type { FakeStripe, FakeStripeDelivery, FakeStripeOptions, FakeStripeRequest } from './handle-types.js';

function unrecognized(method: string, path: string): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/. ` +
      '(The fake Stripe server implements only Checkout Session create, retrieve and expire; PaymentIntent, Charge and ' +
      'Dispute retrieve; Account retrieve; Refund create, retrieve and list; event retrieve; Customer create and retrieve; Coupon create and retrieve; Product create, ' +
      'retrieve and update; Price create, retrieve, update and list; Subscription retrieve, list, update and cancel; ' +
      'Invoice and Invoice Payment retrieve and list; test clock create, retrieve and advance; and billing portal ' +
      'session create.)',
  );
}

/** `GET /v1/account`: the parts of a standard account the project reads (its id). */
const accountObject = (id: string) => ({
  id,
  object: 'account',
  type: 'standard',
  country: 'US',
  default_currency: 'usd',
  charges_enabled: true,
  payouts_enabled: true,
  details_submitted: true,
  email: null,
  settings: { dashboard: { display_name: 'VPN Shop' } },
});

const copy = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : structuredClone(value));

/**
 * A fake of the parts of Stripe's API this project uses, on 127.0.0.1, for the real `stripe` SDK
 * (`new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http' })`):
 * - Checkout Sessions (session-routes.ts), PaymentIntents, Charges, Refunds, Disputes (payment-routes.ts),
 *   `GET /v1/events/:id`, `GET /v1/account` (one account per fake: `accountId`);
 * - Billing (billing-routes.ts, billing-lists.ts): Customers, Products, Prices, Subscriptions, Invoices and their
 *   payments, test clocks, and the customer portal page at each portal session's `url` (billing-portal.ts);
 * - a page listing the test clocks, whose buttons advance each to its next renewal (`GET /test-clocks`,
 *   test-clock-page.ts);
 * - errors in Stripe's shape and status, a `Request-Id` on every answer, Idempotency-Key replay / idempotency_error;
 * - a hosted checkout page at each session's `url` (`GET`/`POST /checkout/pay/:id`);
 * - webhook deliveries signed like Stripe's (`Stripe-Signature: t=…,v1=…`), one attempt each, 10 s limit, in the
 *   endpoint's API version (the SDK's, or an older one whose invoices and subscriptions look as they did then:
 *   api-versions.ts).
 * Sessions expire only through `expire()` or the API, never by the clock.
 */
export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const events: StripeEventObject[] = [];
  const deliveries: FakeStripeDelivery[] = [];
  const requests: FakeStripeRequest[] = [];
  const idempotent = createIdempotencyStore();
  const inFlight = new Set<Promise<unknown>>();
  const shutdown = new AbortController();
  let webhookUrl = options.webhookUrl ?? null;
  let webhookApiVersion = options.webhookApiVersion ?? Stripe.API_VERSION;
  checkApiVersion(webhookApiVersion);
  let failCreates = 0;
  let refundsHeld: Promise<void> | null = null;
  let baseUrl = '';
  let secretKey = options.secretKey;
  const accountId = options.accountId ?? stripeId('acct_', 16);

  const emit: EmitEvent = (type, object, eventOptions = {}) => {
    const event = newEvent(type, object, { created: nowSeconds(), pendingWebhooks: webhookUrl ? 1 : 0, ...eventOptions });
    events.push(event);
    return event;
  };

  const send = (event: StripeEventObject, url: string, apiVersion?: string): Promise<number | 'error'> => {
    const { body, signature } = fake.signedDelivery(event, { apiVersion });
    const attempt = postWebhook(url, body, signature, shutdown.signal).then((status) => {
      deliveries.push({ eventId: event.id, type: event.type, status });
      return status;
    });
    inFlight.add(attempt);
    void attempt.finally(() => inFlight.delete(attempt));
    return attempt;
  };

  /** Delivers to the configured endpoint, if any; never throws. */
  const deliverIfConfigured = async (event: StripeEventObject): Promise<void> => {
    if (webhookUrl && !shutdown.signal.aborted) await send(event, webhookUrl);
  };

  /** Delivers one after another; `waitForDeliveries` waits for the whole chain. */
  const deliverAll = async (list: StripeEventObject[]): Promise<void> => {
    for (const event of list) await deliverIfConfigured(event);
  };

  const deliverInBackground = (list: StripeEventObject[]): void => {
    const chain = deliverAll(list);
    inFlight.add(chain);
    void chain.finally(() => inFlight.delete(chain));
  };

  const ledger = createPaymentLedger(emit);
  const billing = createBilling({ ledger, emit, baseUrl: () => baseUrl });
  /** What an invoice in the 2024-06-20 shape names as its payment: the latest attempt's PaymentIntent and charge. */
  const legacyPayments: LegacyPaymentLookup = {
    paymentOf(invoiceId) {
      const paymentIntent = billing.paymentIntentsOf(invoiceId).at(-1) ?? null;
      const charge = paymentIntent ? ledger.paymentIntent(paymentIntent)?.latest_charge : null;
      return { paymentIntent, charge: typeof charge === 'string' ? charge : (charge?.id ?? null) };
    },
  };
  const portal = createBillingPortal({ billing, baseUrl: () => baseUrl });
  const sessions = createCheckoutSessions({ ledger, emit, billing, pageUrl: (id) => `${baseUrl}/checkout/pay/${id}` });

  // ---- API ----

  const retrieveEvent = (ctx: ApiContext, id: string): HttpAnswer => {
    retrieveParams(ctx.params);
    const event = events.find((e) => e.id === id);
    if (!event) throw noSuch('event', id, 'id');
    return json(200, event);
  };

  const route = (method: string, path: string, ctx: ApiContext): HttpAnswer => {
    const parts = path.split('/').slice(1).map(safeDecode);
    if (parts[0] !== 'v1') throw unrecognized(method, path);
    const answer =
      routeCheckoutSessions(method, parts, ctx, { sessions, deliverInBackground }) ??
      routePayments(method, parts, ctx, { ledger, deliverInBackground }) ??
      routeBilling(method, parts, ctx, { billing, portal, deliverInBackground });
    if (answer) return answer;
    const [, resource, id] = parts;
    if (resource === 'events' && parts.length === 3 && id && method === 'GET') return retrieveEvent(ctx, id);
    if (resource === 'account' && parts.length === 2 && method === 'GET') return json(200, accountObject(accountId));
    throw unrecognized(method, path);
  };

  const handleApi = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    const requestId = stripeId('req_', 14);
    const idempotencyKey = method === 'POST' ? header(req, 'idempotency-key') : null;
    requests.push({ method, path, idempotencyKey });
    const apiVersion = header(req, 'stripe-version') ?? Stripe.API_VERSION;
    const common: Record<string, string> = {
      'request-id': requestId,
      'stripe-version': apiVersion,
      'cache-control': 'no-cache, no-store',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    };
    const fail = (error: StripeApiError): HttpAnswer => json(error.status, error.body(), common);

    const body = await readBody(req);
    if (body === null) return fail(new StripeApiError(413, 'invalid_request_error', 'Request body too large.'));
    const key = apiKeyOf(req);
    if (key !== secretKey) return fail(authenticationError(key));

    if (method === 'POST' && path === '/v1/refunds' && refundsHeld) await refundsHeld;

    if (method === 'POST' && path === '/v1/checkout/sessions' && failCreates > 0) {
      failCreates--;
      return fail(new StripeApiError(500, 'api_error', 'An unknown error occurred. (Injected by the fake Stripe server: failNextCreates.)'));
    }

    let params: FormHash;
    try {
      params = method === 'POST' ? decodeForm(body) : decodeForm(url.search.slice(1));
    } catch (error) {
      if (error instanceof FormDecodeError) return fail(new StripeApiError(400, 'invalid_request_error', error.message));
      throw error;
    }

    const keyed = idempotencyKey ? { key: idempotencyKey, method, path, params } : null;
    let answer: HttpAnswer;
    let save = true;
    try {
      const replayed = keyed && idempotent.replay(keyed);
      // A replay keeps its Idempotent-Replayed and Original-Request headers; the others are this request's.
      if (replayed) return { ...replayed, headers: { ...replayed.headers, ...common } };
      answer = { ...route(method, path, { requestId, idempotencyKey, params, apiVersion }) };
      answer.headers = { ...answer.headers, ...common };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      answer = fail(error);
      // Stripe saves no result for a request that failed parameter validation (or reused a key).
      save = !error.validation;
    }
    if (keyed && save) idempotent.save(keyed, requestId, answer);
    return answer;
  };

  /** The pages a browser opens: checkout, customer portal, test clocks; plain 404 for anything else. */
  const handlePage = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const checkout = /^\/checkout\/pay\/([^/]+)$/.exec(url.pathname);
    const sessionId = checkout ? safeDecode(checkout[1]!) : '';
    if (sessionId) {
      const readForm = async (): Promise<URLSearchParams> => new URLSearchParams((await readBody(req)) ?? '');
      return handleCheckoutPage(method, sessionId, readForm, { sessions, deliver: deliverIfConfigured });
    }
    return (
      (await handlePortalPage(method, url.pathname, { portal, billing, deliver: deliverAll })) ??
      (await handleTestClockPage(method, url.pathname, { billing, deliver: deliverAll })) ??
      pageNotFound()
    );
  };

  const served = await serveFake({
    port: options.port,
    answer: (req, url) => (url.pathname.startsWith('/v1/') || url.pathname === '/v1' ? handleApi(req, url) : handlePage(req, url)),
    crashAnswer: (message) => ({
      status: 500,
      body: JSON.stringify({ error: { type: 'api_error', message: `fake Stripe crashed: ${message}` } }),
      headers: { 'content-type': 'application/json', 'request-id': stripeId('req_', 14) },
    }),
  });
  baseUrl = served.url;

  /** Runs a control method's change, delivers its events in order, and returns the one the method promises. */
  const act = async <T extends StripeEventObject>(change: () => { result: T; events: StripeEventObject[] }): Promise<T> => {
    const { result, events: made } = change();
    await deliverAll(made);
    return result;
  };
  const single = <T extends StripeEventObject>(change: () => T): Promise<T> =>
    act(() => {
      const event = change();
      return { result: event, events: [event] };
    });

  const fake: FakeStripe = {
    ...billingHandle(billing, deliverAll),
    url: baseUrl,
    port: served.port,
    accountId,
    rollSecretKey(next) {
      secretKey = next;
    },
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    setWebhookApiVersion(apiVersion) {
      checkApiVersion(apiVersion ?? Stripe.API_VERSION);
      webhookApiVersion = apiVersion ?? Stripe.API_VERSION;
    },
    getSession: (id) => copy(sessions.get(id)?.session),
    listSessions: () => sessions.all().map((entry) => structuredClone(entry.session)),
    pay: (sessionId, payOptions) =>
      act(() => {
        const { completed, events: made } = sessions.complete(sessionId, payOptions);
        return { result: completed, events: made };
      }),
    succeedAsync: (sessionId) => single(() => sessions.settle(sessionId, true)),
    failAsync: (sessionId) => single(() => sessions.settle(sessionId, false)),
    expire(sessionId) {
      return single(() => {
        const status = sessions.get(sessionId)?.session.status;
        if (status === undefined) throw new Error(`fake Stripe: no checkout session ${sessionId}`);
        if (status !== 'open') throw new Error(`fake Stripe: checkout session ${sessionId} is ${status}, only an open one can expire`);
        return sessions.expire(sessionId);
      });
    },
    getPaymentIntent: (id) => copy(ledger.paymentIntent(id)),
    getCharge: (id) => copy(ledger.charge(id)),
    listRefunds: () => structuredClone(ledger.refunds()),
    getDispute: (id) => copy(ledger.dispute(id)),
    refund(paymentIntentOrChargeId, refundOptions = {}) {
      return act(() => {
        const byIntent = paymentIntentOrChargeId.startsWith('pi_');
        const outcome = ledger.createRefund(
          {
            paymentIntent: byIntent ? paymentIntentOrChargeId : null,
            charge: byIntent ? null : paymentIntentOrChargeId,
            amount: refundOptions.amount,
            reason: refundOptions.reason ?? null,
            metadata: {},
          },
          // A Dashboard action is an API request of Stripe's own, without an idempotency key of ours.
          { id: stripeId('req_', 14), idempotency_key: null },
        );
        return { result: outcome.chargeRefunded, events: [outcome.chargeRefunded, outcome.refundCreated] };
      });
    },
    async failRefund(refundId, reason = 'expired_or_canceled_card') {
      const events = ledger.failRefund(refundId, reason);
      await deliverAll(events);
      return events;
    },
    openDispute: (paymentIntentOrChargeId, disputeOptions = {}) =>
      single(() => ledger.openDispute(paymentIntentOrChargeId, { reason: disputeOptions.reason ?? 'fraudulent', amount: disputeOptions.amount })),
    closeDispute: (disputeId, outcome) => single(() => ledger.closeDispute(disputeId, outcome)),
    events,
    deliveries,
    deliver(event, deliverOptions = {}) {
      if (!webhookUrl) return Promise.reject(new Error('fake Stripe: no webhook URL configured'));
      return send(event, webhookUrl, deliverOptions.apiVersion);
    },
    signedDelivery(event, signOptions = {}) {
      const body = eventPayload(eventInVersion(event, signOptions.apiVersion ?? webhookApiVersion, legacyPayments));
      return { body, signature: signPayload(body, signOptions.secret ?? options.webhookSecret, signOptions.timestamp) };
    },
    async waitForDeliveries() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    failNextCreates(n) {
      failCreates = n;
    },
    holdRefunds() {
      let release = () => {};
      refundsHeld = new Promise<void>((resolve) => {
        release = () => {
          refundsHeld = null;
          resolve();
        };
      });
      return release;
    },
    requests,
    async close() {
      shutdown.abort();
      await fake.waitForDeliveries();
      await served.close();
    },
  };
  return fake;
}
