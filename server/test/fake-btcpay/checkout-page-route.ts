/**
 * The checkout page at each invoice's `checkoutLink` (`/i/{invoiceId}`): `GET` shows it, `POST` is one of
 * its buttons. Once the invoice is paid (Processing, Settled, or Expired with PaidLate) and has
 * `redirectAutomatically` with a redirect URL, the page sends the browser there, as BTCPay's checkout does.
 */
import { invoicePage, notFoundPage, statePage } from './checkout-page.js';
import { html, redirect, type HttpAnswer } from './http.js';
import { dueSats, paidFiat, redirectUrlOf, type InvoiceRecord, type Invoices } from './invoices.js';

/** The page's buttons. */
export type PageAction = 'pay' | 'partial' | 'expire';

export interface CheckoutPageDeps {
  invoices: Invoices;
  /** Does what the button says, as the handle's pay / payPartially / expire do, and resolves once its webhooks are delivered. */
  act(action: PageAction, invoiceId: string): Promise<unknown>;
}

const isPaid = (invoice: InvoiceRecord): boolean =>
  invoice.status === 'Processing' || invoice.status === 'Settled' || (invoice.status === 'Expired' && invoice.additionalStatus === 'PaidLate');

function show(invoice: InvoiceRecord, status = 200, problem?: string): HttpAnswer {
  if (invoice.status === 'New') return html(status, invoicePage(invoice, dueSats(invoice), paidFiat(invoice), problem));
  const back = redirectUrlOf(invoice);
  if (isPaid(invoice) && back && invoice.checkout.redirectAutomatically) return redirect(back);
  return html(status, statePage(invoice, back));
}

/** `GET`/`POST /i/:invoiceId`. `readForm` reads the posted form body. */
export async function handleCheckoutPage(
  method: string,
  invoiceId: string,
  readForm: () => Promise<URLSearchParams>,
  deps: CheckoutPageDeps,
): Promise<HttpAnswer> {
  const invoice = deps.invoices.get(invoiceId);
  if (!invoice) return html(404, notFoundPage());
  if (method === 'GET') return show(invoice);
  if (method !== 'POST') return { status: 405, body: '', headers: { allow: 'GET, POST' } };
  const action = (await readForm()).get('action');
  if (action !== 'pay' && action !== 'partial' && action !== 'expire') return show(invoice, 400, 'Choose one of the buttons.');
  if (invoice.status !== 'New') return show(invoice, 409);
  await deps.act(action, invoiceId);
  // Post/redirect/get: the page itself then shows the new state, or sends the browser back to the store.
  return redirect(`/i/${encodeURIComponent(invoiceId)}`);
}
