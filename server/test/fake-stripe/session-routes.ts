/**
 * The Checkout Session endpoints: `POST /v1/checkout/sessions`, `GET /v1/checkout/sessions/:id`,
 * `POST /v1/checkout/sessions/:id/expire`.
 */
import type { CheckoutSessions, StoredSession } from './checkout-sessions.js';
import { retrieveParams } from './form-params.js';
import { eventRequest, json, type ApiContext, type HttpAnswer } from './http.js';
import { noSuch, StripeApiError } from './stripe-errors.js';
import type { StripeEventObject } from './webhooks.js';

export interface SessionRoutesDeps {
  sessions: CheckoutSessions;
  /** Delivers events in order, in the background (the API answer does not wait, as at Stripe). */
  deliverInBackground(events: StripeEventObject[]): void;
}

/** Answers a `/v1/checkout/sessions…` request, or returns null when the path is not one of these. */
export function routeCheckoutSessions(method: string, parts: string[], ctx: ApiContext, deps: SessionRoutesDeps): HttpAnswer | null {
  const [, resource, kind, id, action, ...rest] = parts;
  if (resource !== 'checkout' || kind !== 'sessions' || rest.length > 0) return null;
  if (id === undefined && method === 'POST') return json(200, deps.sessions.create(ctx.params, ctx.apiVersion));
  if (id && action === undefined && method === 'GET') {
    retrieveParams(ctx.params);
    return json(200, storedSession(deps.sessions, id).session);
  }
  if (id && action === 'expire' && method === 'POST') return expireSession(ctx, id, deps);
  return null;
}

function storedSession(sessions: CheckoutSessions, id: string): StoredSession {
  const entry = sessions.get(id);
  if (!entry) throw noSuch('checkout.session', id, 'session');
  return entry;
}

function expireSession(ctx: ApiContext, id: string, deps: SessionRoutesDeps): HttpAnswer {
  retrieveParams(ctx.params);
  const { session } = storedSession(deps.sessions, id);
  if (session.status !== 'open') {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`,
    );
  }
  const event = deps.sessions.expire(id, eventRequest(ctx));
  deps.deliverInBackground([event]);
  return json(200, session);
}
