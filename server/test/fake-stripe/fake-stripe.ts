import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { checkoutPage, expiredPage, notFoundPage, type PagePaymentMethod } from './checkout-page.js';
import { canonicalForm, decodeForm, FormDecodeError, type FormHash } from './form-body.js';
import { customerDetails, newSession, stripeId, successRedirect, type CheckoutSessionObject } from './session-object.js';
import { parseSessionCreate, type LineItemInput } from './session-params.js';
import { authenticationError, invalidParam, noSuch, StripeApiError } from './stripe-errors.js';
import {
  eventPayload,
  newEvent,
  postWebhook,
  signPayload,
  type CheckoutEventType,
  type EventRequest,
  type StripeEventObject,
} from './webhooks.js';

export interface FakeStripeOptions {
  /** Requests must carry `Authorization: Bearer <secretKey>`, else 401 in Stripe's error shape. */
  secretKey: string;
  /** The `whsec_…` secret webhook deliveries are signed with. */
  webhookSecret: string;
  /** Where events are POSTed; null (the default) = no webhook endpoint configured (events are still recorded). */
  webhookUrl?: string | null;
  /** Default 0 (a free port). */
  port?: number;
}

/** One webhook delivery attempt: the receiver's HTTP status, or 'error' (refused, reset, timed out). */
export interface FakeStripeDelivery {
  eventId: string;
  type: string;
  status: number | 'error';
}

/** One request to the API (`/v1/…`; the checkout pages are not listed). */
export interface FakeStripeRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  idempotencyKey: string | null;
}

export interface FakeStripe {
  /** `http://127.0.0.1:PORT` — what STRIPE_API_URL is set to. */
  readonly url: string;
  readonly port: number;
  /** Where later events are delivered; null = no endpoint. */
  setWebhookUrl(url: string | null): void;
  /** A copy of the session as it is now (as `GET /v1/checkout/sessions/:id` would answer). */
  getSession(id: string): CheckoutSessionObject | undefined;
  /** Copies of every session, oldest first. */
  listSessions(): CheckoutSessionObject[];
  /**
   * What clicking Pay does: session → complete (payment_status 'paid', or 'unpaid' with `async` until
   * `succeedAsync`/`failAsync`), event checkout.session.completed, delivered. Returns the event.
   * `email` is what the customer typed when the session has no customer_email.
   */
  pay(sessionId: string, options?: { async?: boolean; email?: string }): Promise<StripeEventObject>;
  /** An async payment (pay with `async`) settles: payment_status 'paid', event checkout.session.async_payment_succeeded. */
  succeedAsync(sessionId: string): Promise<StripeEventObject>;
  /** An async payment (pay with `async`) fails: event checkout.session.async_payment_failed. */
  failAsync(sessionId: string): Promise<StripeEventObject>;
  /** Session → expired, event checkout.session.expired, delivered. */
  expire(sessionId: string): Promise<StripeEventObject>;
  /** Every event created, in order. */
  readonly events: StripeEventObject[];
  /** Every delivery attempt, in the order they finished. */
  readonly deliveries: FakeStripeDelivery[];
  /** Delivers an event (again) to the webhook URL with a fresh valid signature; returns the HTTP status (or 'error'). */
  deliver(event: StripeEventObject): Promise<number | 'error'>;
  /** The body and Stripe-Signature header a delivery of `event` would carry (tests post these themselves, e.g. to race). */
  signedDelivery(event: StripeEventObject, options?: { secret?: string; timestamp?: number }): { body: string; signature: string };
  /** Resolves once every delivery in flight has finished (API-triggered events are delivered in the background). */
  waitForDeliveries(): Promise<void>;
  /** Fault injection: the next `n` session create requests answer HTTP 500 api_error (nothing is saved under their idempotency key). */
  failNextCreates(n: number): void;
  /** Every API request, in order. */
  readonly requests: FakeStripeRequest[];
  close(): Promise<void>;
}

interface StoredSession {
  session: CheckoutSessionObject;
  lineItems: LineItemInput[];
  /** Completed with a delayed payment method whose outcome has not been reported yet. */
  asyncPending: boolean;
}

interface HttpAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

interface SavedIdempotentResponse {
  fingerprint: string;
  requestId: string;
  answer: HttpAnswer;
}

interface ApiContext {
  requestId: string;
  idempotencyKey: string | null;
  params: FormHash;
}

const MAX_BODY_BYTES = 1024 * 1024;
const HTML = 'text/html; charset=utf-8';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function json(status: number, data: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body: `${JSON.stringify(data, null, 2)}\n`, headers: { 'content-type': 'application/json', ...headers } };
}

function html(status: number, body: string): HttpAnswer {
  return { status, body, headers: { 'content-type': HTML, 'cache-control': 'no-store' } };
}

function redirect(location: string): HttpAnswer {
  return { status: 303, body: '', headers: { location, 'cache-control': 'no-store' } };
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The key from `Authorization: Bearer sk_…` (or Basic with the key as user name, which Stripe also accepts). */
function apiKeyOf(req: IncomingMessage): string | null {
  const authorization = header(req, 'authorization');
  if (!authorization) return null;
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization);
  if (bearer) return bearer[1]!.trim();
  const basic = /^Basic\s+(.+)$/i.exec(authorization);
  if (basic) return Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? '';
  return authorization;
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A percent-decoded path segment ('' when malformed, which no route matches). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

function unrecognized(method: string, path: string): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/. ` +
      '(The fake Stripe server implements only Checkout Session create, retrieve and expire, and event retrieve.)',
  );
}

/** Accepts no parameters except (unsupported) `expand`, as Stripe's retrieve/expire endpoints. */
function rejectParams(params: FormHash): void {
  for (const key of Object.keys(params)) {
    if (key === 'expand') throw invalidParam('expand', 'The fake Stripe server does not support expand.');
    throw invalidParam(key, `Received unknown parameter: ${key}`, 'parameter_unknown');
  }
}

/**
 * A fake of the parts of Stripe's API this project uses, on 127.0.0.1, for the real `stripe` SDK
 * (`new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http' })`):
 * - `POST /v1/checkout/sessions` (validated like Stripe, Idempotency-Key replay / idempotency_error),
 *   `GET /v1/checkout/sessions/:id`, `POST /v1/checkout/sessions/:id/expire`, `GET /v1/events/:id`;
 * - errors in Stripe's shape and status, a `Request-Id` on every answer;
 * - a hosted checkout page at each session's `url` (`GET`/`POST /checkout/pay/:id`);
 * - webhook deliveries signed like Stripe's (`Stripe-Signature: t=…,v1=…`), one attempt each, 10 s limit.
 * Sessions expire only through `expire()` or the API, never by the clock.
 */
export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const sessions = new Map<string, StoredSession>();
  const events: StripeEventObject[] = [];
  const deliveries: FakeStripeDelivery[] = [];
  const requests: FakeStripeRequest[] = [];
  const idempotent = new Map<string, SavedIdempotentResponse>();
  const inFlight = new Set<Promise<unknown>>();
  const shutdown = new AbortController();
  let webhookUrl = options.webhookUrl ?? null;
  let failCreates = 0;
  let baseUrl = '';

  const stored = (id: string): StoredSession => {
    const entry = sessions.get(id);
    if (!entry) throw new Error(`fake Stripe: no checkout session ${id}`);
    return entry;
  };

  const emit = (type: CheckoutEventType, session: CheckoutSessionObject, request?: EventRequest): StripeEventObject => {
    const event = newEvent(type, session, { created: nowSeconds(), pendingWebhooks: webhookUrl ? 1 : 0, request });
    events.push(event);
    return event;
  };

  const send = (event: StripeEventObject, url: string): Promise<number | 'error'> => {
    const { body, signature } = fake.signedDelivery(event);
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

  const completeSession = (id: string, options: { async?: boolean; email?: string } = {}): StripeEventObject => {
    const entry = stored(id);
    const { session } = entry;
    if (session.status !== 'open') throw new Error(`fake Stripe: checkout session ${id} is ${session.status}, not open`);
    session.status = 'complete';
    session.payment_status = options.async ? 'unpaid' : 'paid';
    session.payment_intent = stripeId('pi_3', 24);
    session.customer_details = customerDetails(options.email ?? session.customer_email);
    session.url = null;
    entry.asyncPending = options.async === true;
    return emit('checkout.session.completed', session);
  };

  const settleAsync = async (id: string, succeeded: boolean): Promise<StripeEventObject> => {
    const entry = stored(id);
    if (!entry.asyncPending) throw new Error(`fake Stripe: checkout session ${id} has no async payment awaiting an outcome`);
    entry.asyncPending = false;
    if (succeeded) entry.session.payment_status = 'paid';
    const event = emit(
      succeeded ? 'checkout.session.async_payment_succeeded' : 'checkout.session.async_payment_failed',
      entry.session,
    );
    await deliverIfConfigured(event);
    return event;
  };

  const expireSession = (id: string, request?: EventRequest): StripeEventObject => {
    const { session } = stored(id);
    session.status = 'expired';
    session.url = null;
    return emit('checkout.session.expired', session, request);
  };

  // ---- API ----

  const createSession = (ctx: ApiContext): HttpAnswer => {
    const created = nowSeconds();
    const input = parseSessionCreate(ctx.params, created);
    const id = stripeId('cs_test_a1', 56);
    const session = newSession(input, { id, url: `${baseUrl}/checkout/pay/${id}`, created });
    sessions.set(id, { session, lineItems: input.lineItems, asyncPending: false });
    return json(200, session);
  };

  const retrieveSession = (ctx: ApiContext, id: string): HttpAnswer => {
    rejectParams(ctx.params);
    const entry = sessions.get(id);
    if (!entry) throw noSuch('checkout.session', id, 'session');
    return json(200, entry.session);
  };

  const expireViaApi = (ctx: ApiContext, id: string): HttpAnswer => {
    rejectParams(ctx.params);
    const entry = sessions.get(id);
    if (!entry) throw noSuch('checkout.session', id, 'session');
    const status = entry.session.status;
    if (status !== 'open') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${status}\`.`,
      );
    }
    const event = expireSession(id, { id: ctx.requestId, idempotency_key: ctx.idempotencyKey });
    // Like Stripe, the answer does not wait for the webhook (see waitForDeliveries).
    void deliverIfConfigured(event);
    return json(200, entry.session);
  };

  const retrieveEvent = (ctx: ApiContext, id: string): HttpAnswer => {
    rejectParams(ctx.params);
    const event = events.find((e) => e.id === id);
    if (!event) throw noSuch('event', id, 'id');
    return json(200, event);
  };

  const route = (method: string, path: string, ctx: ApiContext): HttpAnswer => {
    const parts = path.split('/').slice(1).map(safeDecode);
    const [v1, resource, third, fourth, fifth] = parts;
    if (v1 === 'v1' && resource === 'checkout' && third === 'sessions') {
      if (parts.length === 3 && method === 'POST') return createSession(ctx);
      if (parts.length === 4 && fourth && method === 'GET') return retrieveSession(ctx, fourth);
      if (parts.length === 5 && fourth && fifth === 'expire' && method === 'POST') return expireViaApi(ctx, fourth);
    }
    if (v1 === 'v1' && resource === 'events' && parts.length === 3 && third && method === 'GET') return retrieveEvent(ctx, third);
    throw unrecognized(method, path);
  };

  const handleApi = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    const requestId = stripeId('req_', 14);
    const idempotencyKey = method === 'POST' ? header(req, 'idempotency-key') : null;
    requests.push({ method, path, idempotencyKey });
    const common: Record<string, string> = {
      'request-id': requestId,
      'stripe-version': header(req, 'stripe-version') ?? Stripe.API_VERSION,
      'cache-control': 'no-cache, no-store',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    };
    const fail = (error: StripeApiError): HttpAnswer => json(error.status, error.body(), common);

    const body = await readBody(req);
    if (body === null) return fail(new StripeApiError(413, 'invalid_request_error', 'Request body too large.'));
    const key = apiKeyOf(req);
    if (key !== options.secretKey) return fail(authenticationError(key));

    if (method === 'POST' && path === '/v1/checkout/sessions' && failCreates > 0) {
      failCreates--;
      return fail(
        new StripeApiError(500, 'api_error', 'An unknown error occurred. (Injected by the fake Stripe server: failNextCreates.)'),
      );
    }

    let params: FormHash;
    try {
      params = method === 'POST' ? decodeForm(body) : decodeForm(url.search.slice(1));
    } catch (error) {
      if (error instanceof FormDecodeError) return fail(new StripeApiError(400, 'invalid_request_error', error.message));
      throw error;
    }

    const fingerprint = `${method} ${path} ${canonicalForm(params)}`;
    if (idempotencyKey) {
      const saved = idempotent.get(idempotencyKey);
      if (saved && saved.fingerprint !== fingerprint) {
        return fail(
          new StripeApiError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          ),
        );
      }
      if (saved) {
        return {
          ...saved.answer,
          headers: { ...saved.answer.headers, ...common, 'idempotent-replayed': 'true', 'original-request': saved.requestId },
        };
      }
    }

    let answer: HttpAnswer;
    let save = true;
    try {
      answer = { ...route(method, path, { requestId, idempotencyKey, params }) };
      answer.headers = { ...answer.headers, ...common };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      answer = fail(error);
      // Stripe saves no result for a request that failed parameter validation.
      save = !error.validation;
    }
    if (idempotencyKey && save) idempotent.set(idempotencyKey, { fingerprint, requestId, answer });
    return answer;
  };

  // ---- Hosted checkout page ----

  const handlePage = async (req: IncomingMessage, id: string): Promise<HttpAnswer> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const entry = sessions.get(id);
    if (!entry) return html(404, notFoundPage());
    const { session } = entry;
    if (method !== 'GET' && method !== 'POST') return { status: 405, body: '', headers: { allow: 'GET, POST' } };
    if (session.status === 'complete') return redirect(successRedirect(session) ?? '/');
    if (session.status === 'expired') return html(method === 'POST' ? 409 : 200, expiredPage(session));
    if (method === 'GET') return html(200, checkoutPage(session, entry.lineItems));

    const form = new URLSearchParams((await readBody(req)) ?? '');
    const paymentMethod: PagePaymentMethod = form.get('method') === 'delayed' ? 'delayed' : 'card';
    let email: string | undefined;
    if (!session.customer_email) {
      email = form.get('email')?.trim() ?? '';
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        return html(400, checkoutPage(session, entry.lineItems, 'Enter a valid e-mail address.'));
      }
    }
    const event = completeSession(id, { async: paymentMethod === 'delayed', email });
    // Wait for the webhook, so a test that sees the redirect knows the event has been delivered.
    await deliverIfConfigured(event);
    return redirect(successRedirect(session) ?? '/');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let answer: HttpAnswer;
    if (url.pathname.startsWith('/v1/') || url.pathname === '/v1') {
      answer = await handleApi(req, url);
    } else {
      const page = /^\/checkout\/pay\/([^/]+)$/.exec(url.pathname);
      const id = page ? safeDecode(page[1]!) : '';
      answer = id ? await handlePage(req, id) : { status: 404, body: 'Not Found\n', headers: { 'content-type': 'text/plain; charset=utf-8' } };
    }
    if (res.destroyed) return;
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const message = error instanceof Error ? error.message : String(error);
      const body = JSON.stringify({ error: { type: 'api_error', message: `fake Stripe crashed: ${message}` } });
      res.writeHead(500, { 'content-type': 'application/json', 'request-id': stripeId('req_', 14) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  const fake: FakeStripe = {
    url: baseUrl,
    port,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    getSession: (id) => {
      const entry = sessions.get(id);
      return entry && structuredClone(entry.session);
    },
    listSessions: () => [...sessions.values()].map((entry) => structuredClone(entry.session)),
    async pay(sessionId, payOptions) {
      const event = completeSession(sessionId, payOptions);
      await deliverIfConfigured(event);
      return event;
    },
    succeedAsync: (sessionId) => settleAsync(sessionId, true),
    failAsync: (sessionId) => settleAsync(sessionId, false),
    async expire(sessionId) {
      const status = stored(sessionId).session.status;
      if (status !== 'open') throw new Error(`fake Stripe: checkout session ${sessionId} is ${status}, only an open one can expire`);
      const event = expireSession(sessionId);
      await deliverIfConfigured(event);
      return event;
    },
    events,
    deliveries,
    deliver(event) {
      if (!webhookUrl) return Promise.reject(new Error('fake Stripe: no webhook URL configured'));
      return send(event, webhookUrl);
    },
    signedDelivery(event, signOptions = {}) {
      const body = eventPayload(event);
      return { body, signature: signPayload(body, signOptions.secret ?? options.webhookSecret, signOptions.timestamp) };
    },
    async waitForDeliveries() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    failNextCreates(n) {
      failCreates = n;
    },
    requests,
    async close() {
      shutdown.abort();
      await fake.waitForDeliveries();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
