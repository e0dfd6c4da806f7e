/**
 * The API methods the fake carries out (`/api/<method>`): getMe, createInvoice, getInvoices,
 * deleteInvoice, getCurrencies. Each takes the merged parameters and returns the `result`, or throws
 * CryptopayApiError.
 */
import { currenciesOf, type Network } from './currencies.js';
import { badRequest } from './http.js';
import { invoiceObject, type InvoiceLinks } from './invoice-object.js';
import { parseInvoiceQuery, selectInvoices } from './invoice-query.js';
import { parseInvoiceRequest } from './invoice-request.js';
import { statusOf, type Invoices } from './invoices.js';
import { optionalInteger, type Params } from './params.js';

export interface ApiDeps {
  network: Network;
  app: { appId: number; name: string };
  invoices: Invoices;
  links: InvoiceLinks;
}

export const API_METHODS = ['getMe', 'createInvoice', 'getInvoices', 'deleteInvoice', 'getCurrencies'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

/** Method names are matched as documented, case and all. */
export const isApiMethod = (name: string): name is ApiMethod => (API_METHODS as readonly string[]).includes(name);

function deleteInvoice(params: Params, deps: ApiDeps): true {
  let id: number | undefined;
  try {
    id = optionalInteger(params, 'invoice_id');
  } catch {
    throw badRequest('INVOICE_ID_INVALID'); // unverified name
  }
  if (id === undefined) throw badRequest('INVOICE_ID_REQUIRED'); // unverified name
  const record = deps.invoices.get(id);
  // A paid invoice cannot be deleted: the API says it is not found (aiocryptopay issue #12), as for an unknown id.
  if (!record || statusOf(record) === 'paid') throw badRequest('INVOICE_NOT_FOUND');
  deps.invoices.remove(record);
  return true;
}

export function callApiMethod(method: ApiMethod, params: Params, deps: ApiDeps): unknown {
  switch (method) {
    case 'getMe':
      return { app_id: deps.app.appId, name: deps.app.name, payment_processing_bot_username: deps.links.botUsername };
    case 'createInvoice':
      return invoiceObject(deps.invoices.create(parseInvoiceRequest(params, deps.network)), deps.links);
    case 'getInvoices': {
      const now = Date.now();
      return { items: selectInvoices(deps.invoices.all(), parseInvoiceQuery(params), now).map((r) => invoiceObject(r, deps.links, { now })) };
    }
    case 'deleteInvoice':
      return deleteInvoice(params, deps);
    case 'getCurrencies':
      return currenciesOf(deps.network);
  }
}
