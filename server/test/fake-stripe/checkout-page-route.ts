/** The hosted checkout page at each session's `url`: `GET` shows it, `POST` is the Pay button. */
import { checkoutPage, expiredPage, notFoundPage, offeredMethods, type PagePaymentMethod } from './checkout-page.js';
import type { CheckoutSessions } from './checkout-sessions.js';
import { html, redirect, type HttpAnswer } from './http.js';
import { successRedirect } from './session-object.js';
import type { StripeEventObject } from './webhooks.js';

export interface CheckoutPageDeps {
  sessions: CheckoutSessions;
  /** Delivers an event to the webhook endpoint, if one is configured; resolves when it has been answered. */
  deliver(event: StripeEventObject): Promise<void>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `GET`/`POST /checkout/pay/:id`. `readForm` reads the posted form body. */
export async function handleCheckoutPage(method: string, id: string, readForm: () => Promise<URLSearchParams>, deps: CheckoutPageDeps): Promise<HttpAnswer> {
  const entry = deps.sessions.get(id);
  if (!entry) return html(404, notFoundPage());
  const { session, lineItems } = entry;
  if (method !== 'GET' && method !== 'POST') return { status: 405, body: '', headers: { allow: 'GET, POST' } };
  if (session.status === 'complete') return redirect(successRedirect(session) ?? '/');
  if (session.status === 'expired') return html(method === 'POST' ? 409 : 200, expiredPage(session));
  if (method === 'GET') return html(200, checkoutPage(session, lineItems));

  const form = await readForm();
  const offered = offeredMethods(session);
  const chosen = form.get('method') ?? offered[0];
  if (!offered.includes(chosen as PagePaymentMethod)) {
    return html(400, checkoutPage(session, lineItems, 'Choose one of the payment methods shown.'));
  }
  let email: string | undefined;
  if (!session.customer_email && !session.customer) {
    email = form.get('email')?.trim() ?? '';
    if (!EMAIL.test(email)) return html(400, checkoutPage(session, lineItems, 'Enter a valid e-mail address.'));
  }
  const card = form.get('card')?.replace(/\D/g, '');
  if (card !== undefined && !/^\d{12,19}$/.test(card)) return html(400, checkoutPage(session, lineItems, 'Your card number is incomplete.'));
  const { events } = deps.sessions.complete(id, { async: chosen === 'delayed', email, ...(card ? { card } : {}) });
  // Wait for the webhooks, so a test that sees the redirect knows the events have been delivered.
  for (const event of events) await deps.deliver(event);
  return redirect(successRedirect(session) ?? '/');
}
