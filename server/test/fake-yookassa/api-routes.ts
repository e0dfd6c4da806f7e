/**
 * The API v3 routes the fake implements, as a table of paths and the methods each allows (a known path with
 * another method is a 405): shop info, payments (create, read, list, capture, cancel) and refunds (create,
 * read, list). Authentication, idempotence and failure injection happen before a route runs (api-requests.ts).
 */
import { json, parseJsonBody, type HttpAnswer } from './http.js';
import { listPage, oneOfFilter, timeFilter } from './lists.js';
import { parseCreatePayment, SHOP_METHODS, type ShopSettings } from './payment-request.js';
import type { Notice, Payments } from './payments.js';
import { refundObject, type Refunds } from './refunds.js';
import type { YookassaMe } from './yookassa-objects.js';

export interface ApiDeps {
  shopId: string;
  shop: ShopSettings;
  payments: Payments;
  refunds: Refunds;
  /** Sends notifications caused by a request after it is answered (YooKassa notifies asynchronously). */
  notifyLater(notices: Notice[]): void;
}

/** A known path: the methods it allows, and what a request with one of them gets. */
export interface Route {
  allow: readonly string[];
  run(method: string, body: string, query: URLSearchParams): HttpAnswer;
}

const PAYMENT_STATUSES = ['pending', 'waiting_for_capture', 'succeeded', 'canceled'];
const REFUND_STATUSES = ['pending', 'succeeded', 'canceled'];

/** `GET /v3/me`: a test shop with cards, YooMoney and SBP; `fiscalization` present only when receipts are on. */
export function meObject(shopId: string, shop: ShopSettings): YookassaMe {
  return {
    account_id: shopId,
    status: 'enabled',
    test: true,
    ...(shop.fiscalization ? { fiscalization: { enabled: true, provider: 'avanpost' } } : {}),
    fiscalization_enabled: shop.fiscalization,
    payment_methods: [...SHOP_METHODS],
  };
}

function listPayments(deps: ApiDeps, query: URLSearchParams): HttpAnswer {
  const status = oneOfFilter(query, 'status', PAYMENT_STATUSES);
  const method = oneOfFilter(query, 'payment_method', null);
  const created = timeFilter(query, 'created_at');
  const captured = timeFilter(query, 'captured_at');
  const page = listPage(
    [...deps.payments.all()].reverse(),
    query,
    (p) => status(p.status) && method(p.method?.type) && created(p.createdAt) && captured(p.capturedAt),
  );
  return json(200, { ...page, items: page.items.map(deps.payments.present) });
}

function listRefunds(deps: ApiDeps, query: URLSearchParams): HttpAnswer {
  const payment = oneOfFilter(query, 'payment_id', null);
  const status = oneOfFilter(query, 'status', REFUND_STATUSES);
  const created = timeFilter(query, 'created_at');
  const page = listPage([...deps.refunds.all()].reverse(), query, (r) => payment(r.paymentId) && status(r.status) && created(r.createdAt));
  return json(200, { ...page, items: page.items.map(refundObject) });
}

/** The route for a path (its segments after `/v3/`), or null for a path the API does not have. */
export function findRoute(parts: readonly string[], deps: ApiDeps): Route | null {
  const [collection, id, action, ...rest] = parts;
  if (rest.length > 0 || id === '') return null;
  const { payments, refunds } = deps;

  /** A payment move answered with the payment; its notifications follow the answer. */
  const answerWith = (paymentId: string, notices: Notice[]): HttpAnswer => {
    deps.notifyLater(notices);
    return json(200, payments.present(payments.find(paymentId)));
  };

  if (collection === 'me' && id === undefined) return { allow: ['GET'], run: () => json(200, meObject(deps.shopId, deps.shop)) };
  if (collection === 'payments' && id === undefined) {
    return {
      allow: ['GET', 'POST'],
      run(method, body, query) {
        if (method === 'GET') return listPayments(deps, query);
        const { record, notices } = payments.create(parseCreatePayment(parseJsonBody(body), deps.shop));
        return answerWith(record.id, notices);
      },
    };
  }
  if (collection === 'payments' && id !== undefined && action === undefined)
    return { allow: ['GET'], run: () => json(200, payments.present(payments.find(id))) };
  if (collection === 'payments' && id !== undefined && action === 'capture') {
    return { allow: ['POST'], run: (_method, body) => answerWith(id, payments.capture(id, parseJsonBody(body))) };
  }
  if (collection === 'payments' && id !== undefined && action === 'cancel') {
    return {
      allow: ['POST'],
      run(_method, body) {
        parseJsonBody(body);
        return answerWith(id, payments.cancel(id));
      },
    };
  }
  if (collection === 'refunds' && id === undefined) {
    return {
      allow: ['GET', 'POST'],
      run(method, body, query) {
        if (method === 'GET') return listRefunds(deps, query);
        const { record, notices } = refunds.create(parseJsonBody(body));
        deps.notifyLater(notices);
        return json(200, refundObject(record));
      },
    };
  }
  if (collection === 'refunds' && id !== undefined && action === undefined) return { allow: ['GET'], run: () => json(200, refundObject(refunds.find(id))) };
  return null;
}
