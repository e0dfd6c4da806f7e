/**
 * The Greenfield routes the fake implements, store-scoped (`/api/v1/stores/{storeId}/…`) and, for one
 * invoice, also without the store (`/api/v1/invoices/{invoiceId}/…`, BTCPay 2.x): store read, invoice
 * create / read / mark status / payment methods / refund, and the store's pull payments.
 */
import type { StoreObject } from './greenfield-objects.js';
import { invoiceNotFound, json, missingPermission, parseJsonBody, validationError, type HttpAnswer } from './http.js';
import { parseInvoiceRequest } from './invoice-request.js';
import { invoiceObject, paymentMethodObject, type InvoiceEvent, type InvoiceRecord, type Invoices } from './invoices.js';
import type { createRefunds } from './refunds.js';

export interface ApiDeps {
  store: StoreObject;
  invoices: Invoices;
  refunds: ReturnType<typeof createRefunds>;
  checkoutLink(invoiceId: string): string;
  /** Delivers events caused by an API request after the answer (as BTCPay's event aggregator does). */
  deliverInBackground(events: InvoiceEvent[]): void;
}

/** The permission each route needs (named in a 403 for a store the key cannot see). */
const PERMISSIONS = {
  viewStore: 'btcpay.store.canviewstoresettings',
  createInvoice: 'btcpay.store.cancreateinvoice',
  viewInvoices: 'btcpay.store.canviewinvoices',
  modifyInvoices: 'btcpay.store.canmodifyinvoices',
  refund: 'btcpay.store.cancreatenonapprovedpullpayments',
  viewPullPayments: 'btcpay.store.canviewpullpayments',
} as const;

const methodNotAllowed = (allow: string): HttpAnswer => ({ status: 405, body: '', headers: { allow } });

/** `…/invoices/{invoiceId}[/status|/payment-methods|/refund]` for an invoice of the store. */
function routeInvoice(method: string, invoice: InvoiceRecord, rest: string[], body: string, deps: ApiDeps): HttpAnswer | null {
  const view = () => json(200, invoiceObject(invoice, deps.checkoutLink(invoice.id)));
  if (rest.length === 0) return method === 'GET' ? view() : methodNotAllowed('GET');
  if (rest.length !== 1) return null;
  switch (rest[0]) {
    case 'payment-methods':
      return method === 'GET' ? json(200, [paymentMethodObject(invoice)]) : methodNotAllowed('GET');
    case 'status': {
      if (method !== 'POST') return methodNotAllowed('POST');
      const { status } = parseJsonBody(body);
      if (status !== 'Settled' && status !== 'Invalid') throw validationError({ path: 'status', message: 'The status should be Settled or Invalid' });
      const events = deps.invoices.mark(invoice.id, status);
      if (!events) throw validationError({ path: 'status', message: 'Status can only be marked to invalid or settled within certain conditions.' });
      deps.deliverInBackground(events);
      return view();
    }
    case 'refund': {
      if (method !== 'POST') return methodNotAllowed('POST');
      const pullPayment = deps.refunds.create(invoice, parseJsonBody(body));
      deps.deliverInBackground([deps.invoices.refunded(invoice, pullPayment.id)]);
      return json(200, pullPayment);
    }
    default:
      return null;
  }
}

/**
 * Answers `/api/v1/…` for an authenticated request (`parts` = the path's decoded segments), or null when no
 * route matches. Throws GreenfieldApiError for Greenfield's error answers.
 */
export function routeApi(method: string, parts: string[], body: string, deps: ApiDeps, query: URLSearchParams = new URLSearchParams()): HttpAnswer | null {
  if (parts[0] !== 'api' || parts[1] !== 'v1') return null;
  const [, , collection, id, sub, invoiceId, ...rest] = parts;

  if (collection === 'invoices' && id) {
    const invoice = deps.invoices.get(id);
    if (!invoice) throw invoiceNotFound();
    return routeInvoice(method, invoice, parts.slice(4), body, deps);
  }
  if (collection !== 'stores' || !id) return null;

  if (sub === 'pull-payments' && invoiceId === undefined) {
    if (id !== deps.store.id) throw missingPermission(PERMISSIONS.viewPullPayments);
    if (method !== 'GET') return methodNotAllowed('GET');
    // GreenfieldPullPaymentController.GetPullPayments: the store's pull payments, archived ones only with includeArchived=true.
    const includeArchived = query.get('includeArchived')?.toLowerCase() === 'true';
    return json(
      200,
      deps.refunds
        .all()
        .filter((p) => includeArchived || !p.archived)
        .map(({ invoiceId: _kept, ...pullPayment }) => pullPayment),
    );
  }

  const permission =
    sub === undefined
      ? PERMISSIONS.viewStore
      : sub !== 'invoices'
        ? null
        : invoiceId === undefined
          ? PERMISSIONS.createInvoice
          : rest[0] === 'status'
            ? PERMISSIONS.modifyInvoices
            : rest[0] === 'refund'
              ? PERMISSIONS.refund
              : PERMISSIONS.viewInvoices;
  if (!permission) return null;
  if (id !== deps.store.id) throw missingPermission(permission);

  if (sub === undefined) return method === 'GET' ? json(200, deps.store) : methodNotAllowed('GET');
  if (invoiceId === undefined) {
    if (method !== 'POST') return methodNotAllowed('POST');
    const invoice = deps.invoices.create(parseInvoiceRequest(parseJsonBody(body), deps.store));
    deps.deliverInBackground([deps.invoices.createdEvent(invoice)]);
    return json(200, invoiceObject(invoice, deps.checkoutLink(invoice.id)));
  }
  const invoice = deps.invoices.get(invoiceId);
  if (!invoice) throw invoiceNotFound();
  return routeInvoice(method, invoice, rest, body, deps);
}
