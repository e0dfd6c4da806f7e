/**
 * The invoice page at `/invoices/<hash>`: `GET` shows it, `POST` is one of its buttons (Pay in an asset,
 * or Expire), then post/redirect/get back to the page, which shows the new state.
 */
import { html, redirect, type HttpAnswer } from './http.js';
import { activePage, deletedPage, expiredPage, notFoundPage, paidPage } from './invoice-page.js';
import { statusOf, type InvoiceRecord, type Invoices } from './invoices.js';

export interface InvoicePageDeps {
  invoices: Invoices;
  /** What the handle's `pay` does; resolves once the webhook is delivered. */
  pay(invoiceId: number, asset: string): Promise<unknown>;
  expire(invoiceId: number): void;
}

function show(record: InvoiceRecord, status = 200, problem?: string): HttpAnswer {
  switch (statusOf(record)) {
    case 'active':
      return html(status, activePage(record, problem));
    case 'paid':
      return html(status, paidPage(record));
    case 'expired':
      return html(status, expiredPage(record));
  }
}

/** `GET`/`POST /invoices/<hash>`; `readForm` reads the posted form. An unknown hash is 404, a deleted one 410. */
export async function handleInvoicePage(verb: string, hash: string, readForm: () => Promise<URLSearchParams>, deps: InvoicePageDeps): Promise<HttpAnswer> {
  const record = deps.invoices.byHash(hash);
  if (!record) return deps.invoices.wasDeleted(hash) ? html(410, deletedPage()) : html(404, notFoundPage());
  if (verb === 'GET' || verb === 'HEAD') return show(record);
  if (verb !== 'POST') return { status: 405, body: '', headers: { allow: 'GET, POST' } };
  const form = await readForm();
  if (statusOf(record) !== 'active') return show(record, 409);
  const action = form.get('action');
  if (action === 'expire') {
    deps.expire(record.id);
  } else if (action === 'pay') {
    const asset = form.get('asset') ?? '';
    if (!(record.request.acceptedAssets ?? [record.request.asset]).includes(asset)) return show(record, 400, 'Choose one of the assets.');
    await deps.pay(record.id, asset);
  } else {
    return show(record, 400, 'Choose one of the buttons.');
  }
  return redirect(`/invoices/${encodeURIComponent(hash)}`);
}
