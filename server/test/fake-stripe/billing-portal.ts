/**
 * The customer portal: `POST /v1/billing_portal/sessions` and the page at each session's `url`
 * (`GET /p/session/:id`), whose "Update card" (`POST /p/session/:id/update-card`) stops the card declining and
 * pays the customer's open invoices — what a customer fixing their card in Stripe's portal causes.
 */
import type Stripe from 'stripe';
import type { Billing } from './billing.js';
import { escapeHtml, formatAmount, layout } from './checkout-page.js';
import type { FormHash } from './form-body.js';
import { optionalString, rejectUnknown, requiredString, unsupported, urlParam } from './form-params.js';
import { html, redirect, safeDecode, type HttpAnswer } from './http.js';
import { CHECKOUT_LOCALES } from './session-params.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { nowSeconds, stripeId } from './stripe-ids.js';
import { itemOf } from './subscription-objects.js';
import type { StripeEventObject } from './webhooks.js';

export type PortalSessionObject = Stripe.BillingPortal.Session;

const CREATE_PARAMS = new Set(['configuration', 'customer', 'customer_account', 'expand', 'flow_data', 'locale', 'on_behalf_of', 'return_url']);
/** The languages Stripe's portal has (`locale`; SDK 23.1.0): Checkout's and more kinds of English. */
const PORTAL_LOCALES = new Set([...CHECKOUT_LOCALES, 'en-AU', 'en-CA', 'en-IE', 'en-IN', 'en-NZ', 'en-SG']);
/** The account's default portal configuration (the fake has one). */
const CONFIGURATION = stripeId('bpc_1', 23);

export interface BillingPortal {
  create(params: FormHash): PortalSessionObject;
  get(id: string): PortalSessionObject | undefined;
}

export function createBillingPortal(deps: { billing: Billing; baseUrl: () => string }): BillingPortal {
  const sessions = new Map<string, PortalSessionObject>();
  return {
    create(params) {
      rejectUnknown(params, CREATE_PARAMS, '');
      if (params.flow_data !== undefined) throw unsupported('flow_data', 'portal flows (flow_data)');
      const customer = requiredString(params.customer, 'customer');
      if (!deps.billing.customer(customer)) throw noSuch('customer', customer, 'customer');
      const locale = optionalString(params.locale, 'locale') ?? null;
      if (locale !== null && !PORTAL_LOCALES.has(locale)) throw invalidParam('locale', `Invalid locale: ${locale}`);
      const id = stripeId('bps_1', 23);
      const session: PortalSessionObject = {
        id,
        object: 'billing_portal.session',
        configuration: optionalString(params.configuration, 'configuration') ?? CONFIGURATION,
        created: nowSeconds(),
        customer,
        customer_account: null,
        flow: null,
        livemode: false,
        locale: locale,
        on_behalf_of: null,
        return_url: urlParam(params.return_url, 'return_url') ?? null,
        url: `${deps.baseUrl()}/p/session/${id}`,
      };
      sessions.set(id, session);
      return session;
    },
    get: (id) => sessions.get(id),
  };
}

export interface PortalPageDeps {
  portal: BillingPortal;
  billing: Billing;
  /** Delivers events in order; resolves when they have been answered. */
  deliver(events: StripeEventObject[]): Promise<void>;
}

/** `GET /p/session/:id` and `POST /p/session/:id/update-card`; null for any other path. */
export async function handlePortalPage(method: string, path: string, deps: PortalPageDeps): Promise<HttpAnswer | null> {
  const match = /^\/p\/session\/([^/]+)(\/update-card)?$/.exec(path);
  if (!match) return null;
  const session = deps.portal.get(safeDecode(match[1]!));
  if (!session) return html(404, layout('Portal session not found', '<h1>Portal session not found</h1>'));
  if (match[2]) {
    if (method !== 'POST') return { status: 405, body: '', headers: { allow: 'POST' } };
    deps.billing.setCardDeclines(session.customer, false);
    await deps.deliver(deps.billing.payOpenInvoices(session.customer).events);
    return redirect(`/p/session/${encodeURIComponent(session.id)}`);
  }
  if (method !== 'GET') return { status: 405, body: '', headers: { allow: 'GET' } };
  return html(200, portalPage(session, deps.billing));
}

function portalPage(session: PortalSessionObject, billing: Billing): string {
  const customer = billing.customer(session.customer)!;
  const subscriptions = billing.subscriptionsOf(customer.id).map((subscription) => {
    const item = itemOf(subscription);
    const amount = formatAmount(item.price.unit_amount ?? 0, item.price.currency);
    const renews = subscription.cancel_at_period_end ? 'Ends' : 'Renews';
    const when = new Date(item.current_period_end * 1000).toISOString().slice(0, 10);
    return `<li>${amount} / ${escapeHtml(item.price.recurring?.interval ?? '')} — ${escapeHtml(subscription.status)}; ${renews} ${when}</li>`;
  });
  const open = billing
    .openInvoicesOf(customer.id)
    .map((invoice) => `<li>${escapeHtml(invoice.number ?? invoice.id)} — ${formatAmount(invoice.amount_remaining, invoice.currency)} due</li>`);
  const back = session.return_url ? `<a class="cancel" href="${escapeHtml(session.return_url)}">Return to the store</a>` : '';
  return layout(
    'Billing — Fake Stripe',
    `<h1>Manage your subscription</h1>
<p>${escapeHtml(customer.email ?? customer.id)}</p>
<p>Page language: ${escapeHtml(session.locale ?? 'auto')}</p>
<h2>Subscriptions</h2>
<ul>${subscriptions.join('\n') || '<li>None</li>'}</ul>
<h2>Open invoices</h2>
<ul>${open.join('\n') || '<li>None</li>'}</ul>
<form method="post" action="/p/session/${encodeURIComponent(session.id)}/update-card">
<button type="submit">Update card</button>
</form>
${back}`,
  );
}
