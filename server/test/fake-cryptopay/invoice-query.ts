/**
 * Reads `getInvoices`' filters as Crypto Pay does: `invoice_ids` a comma-separated string (unknown ids are
 * left out, not an error), `status` active or paid, `offset` ≥ 0, `count` 1–1000 (default 100). The
 * errors for a negative count (500 APP_ERROR) and a negative offset (500 INTERNAL_SERVER_ERROR) are the
 * real API's, quirks and all.
 */
import { badRequest, CryptopayApiError } from './http.js';
import { statusOf, type InvoiceRecord } from './invoices.js';
import { optionalInteger, optionalList, optionalString, type Params } from './params.js';

export interface InvoiceQuery {
  ids?: number[];
  assets?: string[];
  fiats?: string[];
  status?: 'active' | 'paid';
  offset: number;
  count: number;
}

function idsOf(params: Params): number[] | undefined {
  const listed = optionalList(params, 'invoice_ids');
  if (listed === undefined) return undefined;
  const ids = listed.map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 0)) throw badRequest('INVOICE_IDS_INVALID'); // unverified name
  return ids;
}

function statusFilterOf(params: Params): 'active' | 'paid' | undefined {
  const status = optionalString(params, 'status');
  // The docs list active and paid only; whether the real API takes "expired" is unverified, so the fake refuses it.
  if (status !== undefined && status !== 'active' && status !== 'paid') throw badRequest('STATUS_INVALID'); // unverified name
  return status;
}

function offsetOf(params: Params): number {
  const offset = optionalInteger(params, 'offset') ?? 0;
  if (offset < 0) throw new CryptopayApiError(500, 'INTERNAL_SERVER_ERROR');
  return offset;
}

function countOf(params: Params): number {
  const count = optionalInteger(params, 'count') ?? 100;
  if (count < 0) throw new CryptopayApiError(500, 'APP_ERROR');
  if (count === 0 || count > 1000) throw badRequest('COUNT_INVALID'); // unverified: only the negative case is known
  return count;
}

export function parseInvoiceQuery(params: Params): InvoiceQuery {
  return {
    ids: idsOf(params),
    // One code is the documented form; a comma list is taken too (harmless, unverified).
    assets: optionalList(params, 'asset'),
    fiats: optionalList(params, 'fiat'),
    status: statusFilterOf(params),
    offset: offsetOf(params),
    count: countOf(params),
  };
}

/** The invoices the query selects, newest first (the real order is undocumented), then offset and count. */
export function selectInvoices(records: InvoiceRecord[], query: InvoiceQuery, now = Date.now()): InvoiceRecord[] {
  return records
    .filter((r) => !query.ids || query.ids.includes(r.id))
    .filter((r) => !query.assets || (r.request.asset !== undefined && query.assets.includes(r.request.asset)))
    .filter((r) => !query.fiats || (r.request.fiat !== undefined && query.fiats.includes(r.request.fiat)))
    .filter((r) => !query.status || statusOf(r, now) === query.status)
    .sort((a, b) => b.id - a.id)
    .slice(query.offset, query.offset + query.count);
}
