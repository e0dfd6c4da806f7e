import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { serveFake } from '../fake-http.js';
import { callApiMethod, isApiMethod, type ApiDeps } from './api-methods.js';
import type { FakeCryptopay, FakeCryptopayDelivery, FakeCryptopayOptions, FakeCryptopayRequest } from './handle-types.js';
import {
  CryptopayApiError,
  errorAnswer,
  header,
  json,
  okAnswer,
  pageNotFound,
  readBody,
  safeDecode,
  type CryptopayErrorBody,
  type HttpAnswer,
} from './http.js';
import { invoiceObject, type CryptopayInvoice, type InvoiceLinks } from './invoice-object.js';
import { handleInvoicePage } from './invoice-page-route.js';
import { createInvoices } from './invoices.js';
import { readParams, type Params } from './params.js';
import { postUpdate, signBody, updateBody } from './webhooks.js';

export type { FakeCryptopay, FakeCryptopayDelivery, FakeCryptopayOptions, FakeCryptopayRequest } from './handle-types.js';

/** The verbs the API takes for every method (the docs tie none to a method). */
const API_VERBS = new Set(['GET', 'POST']);

/**
 * A fake of the parts of Crypto Pay a storefront uses, for one app, on 127.0.0.1:
 * - `${url}/api/<method>` for getMe, createInvoice, getInvoices, deleteInvoice, getCurrencies (405
 *   METHOD_NOT_FOUND for any other name), GET or POST, parameters from the query string and the body;
 * - `Crypto-Pay-API-Token` required (401 UNAUTHORIZED otherwise); `{ ok: true, result }`, or
 *   `{ ok: false, error: { code, name } }` with HTTP status `code`;
 * - each invoice's page at its `web_app_invoice_url` (`/invoices/<hash>`) with Pay and Expire buttons;
 * - invoice_paid webhooks signed as Crypto Pay signs them (see webhooks.ts), one attempt each, 10 s limit.
 * An invoice expires when its expiration_date passes on the real clock, or at once through `expire`.
 */
export async function startFakeCryptopay(options: FakeCryptopayOptions): Promise<FakeCryptopay> {
  const network = options.network ?? 'testnet';
  const appId = options.appId ?? 10_001;
  const requests: FakeCryptopayRequest[] = [];
  const deliveries: FakeCryptopayDelivery[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const shutdown = new AbortController();
  const failures: Array<{ method: string; error: CryptopayErrorBody }> = [];
  const lostAnswers: string[] = [];
  /** Each paid invoice's update as first delivered (its id and payload): redeliveries repeat them. */
  const paidUpdates = new Map<number, { updateId: number; payload: CryptopayInvoice }>();
  let nextUpdateId = randomInt(1_000_000, 9_000_000);
  let webhookUrl = options.webhookUrl ?? null;
  let baseUrl = '';

  const invoices = createInvoices();
  const links: InvoiceLinks = {
    botUsername: network === 'mainnet' ? 'CryptoBot' : 'CryptoTestnetBot',
    pageUrl: (hash) => `${baseUrl}/invoices/${encodeURIComponent(hash)}`,
  };
  const deps: ApiDeps = { network, app: { appId, name: options.appName ?? 'Fake Crypto Pay App' }, invoices, links };

  // ---- webhooks ----

  /** One attempt to the webhook URL, if any, recorded in `deliveries`; never throws. */
  const send = async (invoiceId: number, body: string): Promise<{ status: number | 'error' | null }> => {
    if (!webhookUrl || shutdown.signal.aborted) return { status: null };
    const attempt = postUpdate(webhookUrl, body, signBody(body, options.token), shutdown.signal);
    inFlight.add(attempt);
    try {
      const status = await attempt;
      deliveries.push({ invoiceId, status, body });
      return { status };
    } finally {
      inFlight.delete(attempt);
    }
  };

  function updateOf(invoiceId: number): { updateId: number; payload: CryptopayInvoice } {
    const paid = paidUpdates.get(invoiceId);
    if (paid) return paid;
    const record = invoices.get(invoiceId);
    if (!record) throw new Error(`fake Crypto Pay: no invoice ${invoiceId}`);
    return { updateId: nextUpdateId++, payload: invoiceObject(record, links, { webhook: true }) };
  }

  // ---- what the payer and time do (the handle and the invoice page share these) ----

  const pay = async (invoiceId: number, asset?: string, deliver = true) => {
    const record = invoices.pay(invoiceId, asset);
    const update = { updateId: nextUpdateId++, payload: invoiceObject(record, links, { webhook: true }) };
    paidUpdates.set(invoiceId, update);
    if (!deliver) return { status: null };
    return send(invoiceId, updateBody(update.updateId, update.payload, new Date()));
  };

  const expire = (invoiceId: number): void => {
    invoices.expire(invoiceId);
  };

  // ---- HTTP ----

  /** Takes the first queued entry for `method` out of `queue`. */
  function takeFor<T extends string | { method: string }>(queue: T[], method: string): T | undefined {
    const index = queue.findIndex((entry) => (typeof entry === 'string' ? entry : entry.method) === method);
    return index === -1 ? undefined : queue.splice(index, 1)[0];
  }

  const answerApi = async (verb: string, method: string, token: string | null, params: Params, unreadable: CryptopayApiError | null): Promise<HttpAnswer> => {
    const failure = takeFor(failures, method);
    if (failure) return errorAnswer(failure.error);
    // Unverified: whether the real API checks the token before the method name.
    if (token !== options.token) throw new CryptopayApiError(401, 'UNAUTHORIZED');
    if (!isApiMethod(method) || !API_VERBS.has(verb)) throw new CryptopayApiError(405, 'METHOD_NOT_FOUND');
    if (unreadable) throw unreadable;
    return okAnswer(callApiMethod(method, params, deps));
  };

  const handleApi = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const verb = (req.method ?? 'GET').toUpperCase();
    const method = safeDecode(url.pathname.slice('/api/'.length));
    const token = header(req, 'crypto-pay-api-token');
    let params: Params = Object.fromEntries(url.searchParams);
    let unreadable: CryptopayApiError | null = null;
    try {
      params = await readParams(url.searchParams, await readBody(req), header(req, 'content-type'));
    } catch (error) {
      if (!(error instanceof CryptopayApiError)) throw error;
      unreadable = error;
    }
    requests.push({ verb, method, params: structuredClone(params), token });
    let answer: HttpAnswer;
    try {
      answer = await answerApi(verb, method, token, params, unreadable);
    } catch (error) {
      if (!(error instanceof CryptopayApiError)) throw error;
      answer = error.answer();
    }
    // A lost answer: Crypto Pay did the work, the caller never hears of it (a timeout, a dropped connection).
    return takeFor(lostAnswers, method) === undefined ? answer : { ...answer, lost: true };
  };

  const handlePage = async (req: IncomingMessage, url: URL): Promise<HttpAnswer> => {
    const page = /^\/invoices\/([^/]+)$/.exec(url.pathname);
    if (!page) return pageNotFound();
    const readForm = async () => new URLSearchParams((await readBody(req)) ?? '');
    return handleInvoicePage((req.method ?? 'GET').toUpperCase(), safeDecode(page[1]!), readForm, {
      invoices,
      pay: (invoiceId, asset) => pay(invoiceId, asset),
      expire,
    });
  };

  const served = await serveFake({
    port: options.port,
    answer: (req, url) => (url.pathname.startsWith('/api/') ? handleApi(req, url) : handlePage(req, url)),
    crashAnswer: (message) => json(500, { ok: false, error: { code: 500, name: 'INTERNAL_SERVER_ERROR', message: `fake Crypto Pay crashed: ${message}` } }),
  });
  baseUrl = served.url;

  return {
    url: baseUrl,
    port: served.port,
    token: options.token,
    appId,
    requests,
    deliveries,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    getInvoice(id) {
      const record = invoices.get(id);
      return record && invoiceObject(record, links);
    },
    listInvoices: () => invoices.all().map((record) => invoiceObject(record, links)),
    pay: async (invoiceId, payOptions = {}) => pay(invoiceId, payOptions.asset, payOptions.deliver ?? true),
    async redeliver(invoiceId) {
      const update = paidUpdates.get(invoiceId);
      if (!update) throw new Error(`fake Crypto Pay: invoice ${invoiceId} has not been paid`);
      return send(invoiceId, updateBody(update.updateId, update.payload, new Date()));
    },
    expire,
    failNext(method, error) {
      failures.push({ method, error: { code: error.code, name: error.name } });
    },
    loseNextAnswer(method) {
      lostAnswers.push(method);
    },
    signedUpdate(invoiceId, signOptions = {}) {
      const { updateId, payload } = updateOf(invoiceId);
      const body = updateBody(updateId, payload, new Date());
      return { body, signature: signBody(body, signOptions.token ?? options.token) };
    },
    async close() {
      shutdown.abort();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await served.close();
    },
  };
}
