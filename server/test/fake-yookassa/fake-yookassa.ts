import type { IncomingMessage } from 'node:http';
import { serveFake } from '../fake-http.js';
import { handleApiRequest, type ApiRequestsDeps, type ScriptedFailure, type ScriptedRequest } from './api-requests.js';
import { handleCheckoutPage } from './checkout-page-route.js';
import { createFakeClock } from './clock.js';
import type { FakeYookassa, FakeYookassaDelivery, FakeYookassaNotice, FakeYookassaOptions, FakeYookassaRequest } from './handle-types.js';
import { json, pageNotFound, readBody, safeDecode, type HttpAnswer } from './http.js';
import { createIdempotenceStore } from './idempotence.js';
import { notificationOf, postNotification } from './notifications.js';
import { createPaymentMethods } from './payment-methods.js';
import { createPayments, type Notice } from './payments.js';
import { createRefunds, refundObject } from './refunds.js';

export type { FakeYookassa, FakeYookassaDelivery, FakeYookassaNotice, FakeYookassaOptions, FakeYookassaRequest } from './handle-types.js';

/**
 * A fake of the parts of YooKassa API v3 a storefront uses, for one test shop, on 127.0.0.1:
 * - `${url}/v3`: `GET /me`, payments (create, read, list, capture, cancel), refunds (create, read, list) —
 *   see api-routes.ts; Basic auth, Idempotence-Key and the error bodies as YooKassa has them (api-requests.ts);
 * - each redirect payment's confirmation page at `${url}/checkout/{paymentId}`, with Pay by card / Pay with
 *   SBP / Decline / Leave, sending the browser back to the payment's `return_url`;
 * - unsigned notifications to the configured URL, one attempt each, 10 s limit, recorded in `deliveries`.
 * The clock is the real one plus whatever `advanceTime` added; payments move only when the page, the
 * handle, an API call or that clock moves them.
 */
export async function startFakeYookassa(options: FakeYookassaOptions): Promise<FakeYookassa> {
  const clock = createFakeClock();
  const shop = { currencies: options.currencies ?? ['RUB'], fiscalization: options.fiscalization ?? false };
  const requests: FakeYookassaRequest[] = [];
  const deliveries: FakeYookassaDelivery[] = [];
  const sent: FakeYookassaNotice[] = [];
  const failures: ScriptedFailure[] = [];
  const lostAnswers: ScriptedRequest[] = [];
  const shutdown = new AbortController();
  let webhookUrl = options.webhookUrl ?? null;
  let baseUrl = '';
  // Notifications go out one after another, in the order they happened.
  let queue: Promise<void> = Promise.resolve();

  const methods = createPaymentMethods();
  const payments = createPayments({
    clock,
    shopId: options.shopId,
    fiscalization: shop.fiscalization,
    methods,
    confirmationUrl: (id) => `${baseUrl}/checkout/${encodeURIComponent(id)}`,
  });
  const refunds = createRefunds({ clock, payments, fiscalization: shop.fiscalization });

  const enqueue = (task: () => Promise<void>): Promise<void> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };

  /** One attempt to `url`, recorded; never throws. */
  const attempt = async (notice: FakeYookassaNotice, url: string): Promise<number | 'error'> => {
    if (shutdown.signal.aborted) return 'error';
    const status = await postNotification(url, JSON.stringify(notificationOf(notice)), shutdown.signal);
    deliveries.push({ event: notice.event, objectId: notice.object.id, status });
    return status;
  };

  /** Records the notices in `sent` and, unless told not to, sends them to the URL configured now; resolves once answered. */
  const notify = (notices: Notice[], deliver = true): Promise<void> => {
    const copies = notices.map((notice) => structuredClone(notice));
    sent.push(...copies);
    const url = webhookUrl;
    if (!deliver || !url || copies.length === 0) return Promise.resolve();
    return enqueue(async () => {
      for (const notice of copies) await attempt(notice, url);
    });
  };

  const year = (): number => new Date(clock.now()).getUTCFullYear();
  const pay = (id: string, method?: Parameters<typeof payments.pay>[1], deliver = true) => notify(payments.pay(id, method), deliver);
  const decline = (id: string, reason = 'insufficient_funds', deliver = true) => notify(payments.decline(id, reason), deliver);

  const apiDeps: ApiRequestsDeps = {
    shopId: options.shopId,
    secretKey: options.secretKey,
    shop,
    payments,
    refunds,
    notifyLater: (notices) => void notify(notices),
    idempotence: createIdempotenceStore(clock),
    requests,
    failures,
    lostAnswers,
  };

  const handlePage = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const checkout = /^\/checkout\/([^/]+)$/.exec(url.pathname);
    if (!checkout) return pageNotFound();
    const readForm = async () => new URLSearchParams((await readBody(req)) ?? '');
    return handleCheckoutPage((req.method ?? 'GET').toUpperCase(), safeDecode(checkout[1]!), readForm, {
      shopId: options.shopId,
      payments,
      year,
      pay: (id, method) => pay(id, method),
      decline: (id) => decline(id),
    });
  };

  const served = await serveFake({
    port: options.port,
    answer: (req, url) => (url.pathname === '/v3' || url.pathname.startsWith('/v3/') ? handleApiRequest(req, url, apiDeps) : handlePage(req, url)),
    crashAnswer: (message) => json(500, { type: 'error', id: 'fake', code: 'internal_server_error', description: `fake YooKassa crashed: ${message}` }),
  });
  baseUrl = served.url;

  const fake: FakeYookassa = {
    url: baseUrl,
    port: served.port,
    shopId: options.shopId,
    requests,
    deliveries,
    sent,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    getPayment(id) {
      const record = payments.get(id);
      return record && payments.present(record);
    },
    listPayments: () => payments.all().map(payments.present),
    getRefund(id) {
      const record = refunds.get(id);
      return record && refundObject(record);
    },
    listRefunds: () => refunds.all().map(refundObject),
    pay: async (id, payOptions = {}) => pay(id, payOptions.method, payOptions.deliver ?? true),
    decline: async (id, reason, declineOptions = {}) => decline(id, reason, declineOptions.deliver ?? true),
    expire: async (id, expireOptions = {}) => notify(payments.expireConfirmation(id), expireOptions.deliver ?? true),
    scriptSavedCharges: (methodId, outcomes) => methods.script(methodId, outcomes),
    settle: async (id, outcome) => notify(payments.settle(id, outcome)),
    scriptRefunds: (outcomes) => refunds.script(outcomes),
    settleRefund: async (id, outcome) => notify(refunds.settle(id, outcome)),
    async redeliver(index) {
      const notice = sent[index];
      if (!notice) throw new Error(`fake YooKassa: no notification #${index} (${sent.length} sent)`);
      if (!webhookUrl) throw new Error('fake YooKassa: no webhook URL to redeliver to');
      const url = webhookUrl;
      let status: number | 'error' = 'error';
      await enqueue(async () => {
        status = await attempt(notice, url);
      });
      return status;
    },
    async postNotification(body) {
      if (!webhookUrl) throw new Error('fake YooKassa: no webhook URL to post to');
      return postNotification(webhookUrl, typeof body === 'string' ? body : JSON.stringify(body), shutdown.signal);
    },
    loseNextAnswer(method, pathPattern) {
      lostAnswers.push({ method: method.toUpperCase(), pattern: pathPattern });
    },
    failNext(method, pathPattern, error) {
      failures.push({ method: method.toUpperCase(), pattern: pathPattern, error });
    },
    advanceTime(ms) {
      clock.advance(ms);
      void notify(payments.expireDue());
    },
    waitForDeliveries: () => queue,
    async close() {
      shutdown.abort();
      await queue;
      await served.close();
    },
  };
  return fake;
}
