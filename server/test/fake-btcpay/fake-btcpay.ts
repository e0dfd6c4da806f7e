import type { IncomingMessage } from 'node:http';
import { serveFake } from '../fake-http.js';
import { routeApi } from './api-routes.js';
import { handleCheckoutPage, type PageAction } from './checkout-page-route.js';
import type { StoreObject } from './greenfield-objects.js';
import type { FakeBtcpay, FakeBtcpayDelivery, FakeBtcpayOptions, FakeBtcpayRequest } from './handle-types.js';
import { apiKeyOf, GreenfieldApiError, json, pageNotFound, readBody, safeDecode, unauthenticated, type HttpAnswer } from './http.js';
import { base58Id, nowSeconds } from './ids.js';
import { createInvoices, dueSats, invoiceObject, paymentMethodObject, type InvoiceEvent } from './invoices.js';
import { createRefunds } from './refunds.js';
import { payloadOf, postWebhook, redeliveryOf, signBody, webhookBody, type WebhookPayload } from './webhooks.js';

export type { FakeBtcpay, FakeBtcpayDelivery, FakeBtcpayOptions, FakeBtcpayRequest } from './handle-types.js';

function storeOf(options: FakeBtcpayOptions): StoreObject {
  return {
    id: options.storeId,
    name: options.storeName ?? 'Fake BTCPay Store',
    website: null,
    defaultCurrency: 'USD',
    invoiceExpiration: 900,
    monitoringExpiration: 86_400,
    speedPolicy: options.speedPolicy ?? 'MediumSpeed',
    paymentTolerance: 0,
    archived: false,
    anyoneCanCreateInvoice: false,
    redirectAutomatically: false,
    defaultPaymentMethod: 'BTC-CHAIN',
    lazyPaymentMethods: false,
  };
}

/**
 * A fake of the parts of BTCPay Server's Greenfield API a storefront uses, for one store, on 127.0.0.1:
 * - `GET /api/v1/stores/{storeId}`, invoices: create, read, mark status, payment methods, refund
 *   (a pull payment whose page is `/pull-payments/{id}`) — see api-routes.ts;
 * - `Authorization: token <apiKey>` required (401 `unauthenticated` otherwise); another store id answers
 *   403 `missing-permission`, as BTCPay answers for a store the key cannot see;
 * - the checkout page at each invoice's `checkoutLink` (`/i/{invoiceId}`) with Pay / Pay partially / Let it
 *   expire buttons, redirecting a paid invoice's browser to its redirect URL;
 * - the store's one webhook, delivered like BTCPay's (see webhooks.ts), one attempt each, 10 s limit.
 * Invoice states move as BTCPay's invoice watcher moves them (see invoices.ts), never by the clock.
 */
export async function startFakeBtcpay(options: FakeBtcpayOptions): Promise<FakeBtcpay> {
  const store = storeOf(options);
  const webhookId = base58Id(16);
  const events: WebhookPayload[] = [];
  const sent = new Map<string, WebhookPayload>();
  const deliveries: FakeBtcpayDelivery[] = [];
  const requests: FakeBtcpayRequest[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const shutdown = new AbortController();
  let webhookUrl = options.webhookUrl ?? null;
  const loseAnswers: Array<{ method: string; pattern: RegExp }> = [];
  let baseUrl = '';

  const invoices = createInvoices(store.id);
  const refunds = createRefunds(invoices, (id) => `${baseUrl}/pull-payments/${encodeURIComponent(id)}`);
  const checkoutLink = (invoiceId: string) => `${baseUrl}/i/${encodeURIComponent(invoiceId)}`;

  const signedDelivery = (payload: WebhookPayload, signOptions: { secret?: string } = {}) => {
    const body = webhookBody(payload);
    return { body, signature: signBody(body, signOptions.secret ?? options.webhookSecret) };
  };

  /** One attempt to the webhook URL, if any, recorded in `deliveries`; never throws. */
  const send = async (payload: WebhookPayload): Promise<void> => {
    sent.set(payload.deliveryId, payload);
    if (!webhookUrl || shutdown.signal.aborted) return;
    const { body, signature } = signedDelivery(payload);
    const status = await postWebhook(webhookUrl, body, signature, shutdown.signal);
    deliveries.push({
      deliveryId: payload.deliveryId,
      originalDeliveryId: payload.originalDeliveryId,
      type: payload.type,
      invoiceId: payload.invoiceId,
      status,
    });
  };

  /** The events as first deliveries, recorded, then sent one after another; resolves with their payloads once answered. */
  const deliverAll = async (made: InvoiceEvent[]): Promise<WebhookPayload[]> => {
    const payloads = made.map((event) => payloadOf(event, webhookId, nowSeconds()));
    events.push(...payloads);
    const chain = (async () => {
      for (const payload of payloads) await send(payload);
    })();
    inFlight.add(chain);
    void chain.finally(() => inFlight.delete(chain));
    await chain;
    return structuredClone(payloads);
  };

  const deliverInBackground = (made: InvoiceEvent[]): void => {
    void deliverAll(made);
  };

  // ---- what the customer and time do (the handle and the checkout page share these) ----

  const pay = (invoiceId: string, confirmed = true, overpaySats = 0) => deliverAll(invoices.receive(invoiceId, dueSatsOf(invoiceId) + overpaySats, confirmed));
  const payPartially = (invoiceId: string) => deliverAll(invoices.receive(invoiceId, Math.max(1, Math.floor(dueSatsOf(invoiceId) / 2)), false));
  const expire = (invoiceId: string) => deliverAll(invoices.expire(invoiceId));

  function dueSatsOf(invoiceId: string): number {
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error(`fake BTCPay: no invoice ${invoiceId}`);
    return dueSats(invoice);
  }

  function mustBe(invoiceId: string, status: string): void {
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error(`fake BTCPay: no invoice ${invoiceId}`);
    if (invoice.status !== status) throw new Error(`fake BTCPay: invoice ${invoiceId} is ${invoice.status}, not ${status}`);
  }

  const pageActions: Record<PageAction, (invoiceId: string) => Promise<unknown>> = { pay: (id) => pay(id), partial: payPartially, expire };

  // ---- HTTP ----

  const handleApi = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    requests.push({ method, path: url.pathname, body: body ?? '' });
    try {
      if (body === null) throw new GreenfieldApiError(413, 'request-too-large', 'The request body is too large');
      if (apiKeyOf(req) !== options.apiKey) throw unauthenticated();
      const parts = url.pathname.split('/').slice(1).map(safeDecode);
      const answer = routeApi(method, parts, body, { store, invoices, refunds, checkoutLink, deliverInBackground }, url.searchParams) ?? {
        status: 404,
        body: '',
        headers: {},
      };
      // A lost answer: BTCPay did the work, the caller never hears of it (a timeout, a dropped connection).
      if (loseAnswers.length > 0 && loseAnswers[0]!.method === method && loseAnswers[0]!.pattern.test(url.pathname)) {
        loseAnswers.shift();
        return { ...answer, lost: true };
      }
      return answer;
    } catch (error) {
      if (error instanceof GreenfieldApiError) return error.answer();
      throw error;
    }
  };

  const handlePage = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const checkout = /^\/i\/([^/]+)$/.exec(url.pathname);
    if (checkout) {
      const readForm = async () => new URLSearchParams((await readBody(req)) ?? '');
      return handleCheckoutPage(method, safeDecode(checkout[1]!), readForm, { invoices, act: (action, id) => pageActions[action](id) });
    }
    const pullPayment = /^\/pull-payments\/([^/]+)$/.exec(url.pathname);
    const refund = pullPayment ? refunds.all().find((p) => p.id === safeDecode(pullPayment[1]!)) : undefined;
    if (refund && method === 'GET') {
      const text = `Refund ${refund.amount} ${refund.currency}: the customer would give a bitcoin address here to claim it.\n`;
      return { status: 200, body: text, headers: { 'content-type': 'text/plain; charset=utf-8' } };
    }
    return pageNotFound();
  };

  const served = await serveFake({
    port: options.port,
    answer: (req, url) => (url.pathname.startsWith('/api/') ? handleApi(req, url) : handlePage(req, url)),
    crashAnswer: (message) => json(500, { code: 'unhandled-exception', message: `fake BTCPay crashed: ${message}` }),
  });
  baseUrl = served.url;

  const fake: FakeBtcpay = {
    url: baseUrl,
    port: served.port,
    storeId: store.id,
    webhookId,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    loseNextAnswer(method, pattern) {
      loseAnswers.push({ method: method.toUpperCase(), pattern });
    },
    getStore: () => structuredClone(store),
    getInvoice(id) {
      const invoice = invoices.get(id);
      return invoice && invoiceObject(invoice, checkoutLink(id));
    },
    listInvoices: () => invoices.all().map((invoice) => invoiceObject(invoice, checkoutLink(invoice.id))),
    getPaymentMethods(id) {
      const invoice = invoices.get(id);
      return invoice && [paymentMethodObject(invoice)];
    },
    async pay(invoiceId, payOptions = {}) {
      mustBe(invoiceId, 'New');
      return pay(invoiceId, payOptions.confirmed ?? true, payOptions.overpaySats ?? 0);
    },
    confirm: async (invoiceId) => deliverAll(invoices.confirm(invoiceId)),
    async payPartially(invoiceId) {
      mustBe(invoiceId, 'New');
      return payPartially(invoiceId);
    },
    expire: async (invoiceId) => expire(invoiceId),
    async payLate(invoiceId, payOptions = {}) {
      mustBe(invoiceId, 'Expired');
      return deliverAll(invoices.receive(invoiceId, dueSatsOf(invoiceId), payOptions.confirmed ?? true));
    },
    async markStatus(invoiceId, status) {
      const made = invoices.mark(invoiceId, status);
      if (!made) throw new Error(`fake BTCPay: invoice ${invoiceId} cannot be marked ${status} now`);
      return deliverAll(made);
    },
    listRefunds: () => refunds.all(),
    events,
    deliveries,
    async redeliver(deliveryId) {
      const original = sent.get(deliveryId) ?? events.find((e) => e.deliveryId === deliveryId);
      if (!original) throw new Error(`fake BTCPay: no delivery ${deliveryId}`);
      const payload = redeliveryOf(original);
      const attempt = send(payload);
      inFlight.add(attempt);
      void attempt.finally(() => inFlight.delete(attempt));
      await attempt;
      return structuredClone(payload);
    },
    signedDelivery,
    async waitForDeliveries() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
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
