/**
 * The API endpoints of PaymentIntents, Charges, Refunds and Disputes:
 * `GET /v1/payment_intents/:id` (expand[]=latest_charge), `GET /v1/charges/:id` (expand[]=refunds),
 * `POST /v1/refunds`, `GET /v1/refunds/:id`, `GET /v1/refunds` (charge, payment_intent, limit, starting_after,
 * ending_before), `GET /v1/disputes/:id`.
 */
import type Stripe from 'stripe';
import { eventRequest, json, type ApiContext, type HttpAnswer } from './http.js';
import { optionalString, rejectUnknown, retrieveParams, unsupported } from './form-params.js';
import { listPage, newestFirst, PAGE_PARAMS } from './list-pages.js';
import type { PaymentLedger } from './payment-ledger.js';
import { chargeWithRefunds } from './payment-objects.js';
import { parseRefundCreate, type RefundObject } from './refunds.js';
import { noSuch } from './stripe-errors.js';
import type { StripeEventObject } from './webhooks.js';

export interface PaymentRoutesDeps {
  ledger: PaymentLedger;
  /** Delivers events in order, in the background (the API answer does not wait, as at Stripe). */
  deliverInBackground(events: StripeEventObject[]): void;
}

const LIST_PARAMS = new Set(['charge', 'created', 'expand', 'payment_intent', ...PAGE_PARAMS]);

/** Answers a `/v1/…` request about these objects, or returns null when the path is not one of theirs. */
export function routePayments(method: string, parts: string[], ctx: ApiContext, deps: PaymentRoutesDeps): HttpAnswer | null {
  const [, resource, id, ...rest] = parts;
  if (rest.length > 0) return null;
  const { ledger } = deps;

  if (resource === 'payment_intents' && id && method === 'GET') {
    const expand = retrieveParams(ctx.params, ['latest_charge']);
    const paymentIntent = ledger.paymentIntent(id);
    if (!paymentIntent) throw noSuch('payment_intent', id, 'intent');
    const latest = typeof paymentIntent.latest_charge === 'string' ? ledger.charge(paymentIntent.latest_charge) : undefined;
    return json(200, expand.has('latest_charge') && latest ? { ...paymentIntent, latest_charge: latest } : paymentIntent);
  }

  if (resource === 'charges' && id && method === 'GET') {
    const expand = retrieveParams(ctx.params, ['refunds']);
    const charge = ledger.charge(id);
    if (!charge) throw noSuch('charge', id, 'charge');
    return json(200, expand.has('refunds') ? chargeWithRefunds(charge, ledger.refunds()) : charge);
  }

  if (resource === 'refunds' && id === undefined && method === 'POST') {
    const { refund, chargeRefunded, refundCreated } = ledger.createRefund(parseRefundCreate(ctx.params), eventRequest(ctx));
    deps.deliverInBackground([chargeRefunded, refundCreated]);
    return json(200, refund);
  }

  if (resource === 'refunds' && id === undefined && method === 'GET') return json(200, listRefunds(ctx, ledger.refunds()));

  if (resource === 'refunds' && id && method === 'GET') {
    retrieveParams(ctx.params);
    const refund = ledger.refund(id);
    if (!refund) throw noSuch('refund', id, 'id');
    return json(200, refund);
  }

  if (resource === 'disputes' && id && method === 'GET') {
    retrieveParams(ctx.params);
    const dispute = ledger.dispute(id);
    if (!dispute) throw noSuch('dispute', id, 'dispute');
    return json(200, dispute);
  }

  return null;
}

/** `GET /v1/refunds`: newest first, filtered by charge or payment intent, one page of `limit` (default 10). */
function listRefunds(ctx: ApiContext, all: RefundObject[]): Stripe.ApiList<RefundObject> {
  const { params } = ctx;
  rejectUnknown(params, LIST_PARAMS, '');
  if (params.created !== undefined) throw unsupported('created', 'filtering refunds by created');
  if (params.expand !== undefined) throw unsupported('expand', 'expand on refund lists');
  const charge = optionalString(params.charge, 'charge');
  const paymentIntent = optionalString(params.payment_intent, 'payment_intent');
  const matching = all
    .filter((refund) => charge === undefined || refund.charge === charge)
    .filter((refund) => paymentIntent === undefined || refund.payment_intent === paymentIntent);
  return listPage(newestFirst(matching), params, 'refund', '/v1/refunds');
}
