/**
 * Reads `createInvoice`'s parameters as Crypto Pay validates them. The names of errors the sources show are
 * used as they are (UNSUPPORTED_ASSET, PAID_BTN_URL_REQUIRED, EXPIRES_IN_INVALID, 500 APP_ERROR for a JSON
 * array of accepted_assets); the others follow the API's `<PARAM>_INVALID` / `_REQUIRED` pattern and are
 * marked "unverified" where they are made.
 */
import { parseFixed } from './amounts.js';
import { assetCodesOf, isFiat, type Network } from './currencies.js';
import { badRequest } from './http.js';
import { optionalBoolean, optionalInteger, optionalList, optionalString, type Params } from './params.js';

export const PAID_BUTTON_NAMES = ['viewItem', 'openChannel', 'openBot', 'callback'] as const;
export type PaidButtonName = (typeof PAID_BUTTON_NAMES)[number];

/** The assets `swap_to` may name (changelog 1.5.1). */
const SWAP_ASSETS = ['USDT', 'TON', 'TRX', 'ETH', 'SOL', 'BTC', 'LTC'];

/** 31 days: the longest `expires_in` the API takes. */
export const MAX_EXPIRES_IN = 2_678_400;

export interface InvoiceRequest {
  currencyType: 'crypto' | 'fiat';
  /** Crypto invoices. */
  asset?: string;
  /** Fiat invoices, with the assets that may pay them (all the network's, unless narrowed). */
  fiat?: string;
  acceptedAssets?: string[];
  /** As sent ("1990.00" stays "1990.00"). */
  amount: string;
  swapTo?: string;
  description?: string;
  hiddenMessage?: string;
  paidBtnName?: PaidButtonName;
  paidBtnUrl?: string;
  payload?: string;
  allowComments: boolean;
  allowAnonymous: boolean;
  /** Seconds; none = the invoice never expires. */
  expiresIn?: number;
}

function currencyTypeOf(params: Params): 'crypto' | 'fiat' {
  const type = optionalString(params, 'currency_type') ?? 'crypto';
  // Unverified name.
  if (type !== 'crypto' && type !== 'fiat') throw badRequest('CURRENCY_TYPE_INVALID');
  return type;
}

function assetOf(params: Params, network: Network): string {
  const asset = optionalString(params, 'asset');
  if (asset === undefined) throw badRequest('ASSET_REQUIRED'); // unverified name
  if (!assetCodesOf(network).includes(asset)) throw badRequest('UNSUPPORTED_ASSET');
  return asset;
}

function fiatOf(params: Params): { fiat: string } {
  const fiat = optionalString(params, 'fiat');
  if (fiat === undefined) throw badRequest('FIAT_REQUIRED'); // unverified name
  if (!isFiat(fiat)) throw badRequest('UNSUPPORTED_FIAT'); // unverified name
  return { fiat };
}

function acceptedAssetsOf(params: Params, network: Network): string[] {
  const listed = optionalList(params, 'accepted_assets');
  if (listed === undefined || listed.length === 0) return assetCodesOf(network);
  if (listed.some((asset) => !assetCodesOf(network).includes(asset))) throw badRequest('UNSUPPORTED_ASSET'); // unverified for this field
  return [...new Set(listed)];
}

function amountOf(params: Params): string {
  const amount = optionalString(params, 'amount');
  if (amount === undefined) throw badRequest('AMOUNT_REQUIRED'); // unverified name
  const value = parseFixed(amount.trim());
  if (value === null || value === 0n) throw badRequest('AMOUNT_INVALID');
  return amount.trim();
}

function limited(params: Params, name: string, max: number, measure: (text: string) => number = (t) => t.length): string | undefined {
  const text = optionalString(params, name);
  if (text !== undefined && measure(text) > max) throw badRequest(`${name.toUpperCase()}_TOO_LONG`); // unverified names
  return text;
}

function paidButtonOf(params: Params): Pick<InvoiceRequest, 'paidBtnName' | 'paidBtnUrl'> {
  const name = optionalString(params, 'paid_btn_name');
  const url = optionalString(params, 'paid_btn_url');
  if (name === undefined) return url === undefined ? {} : { paidBtnUrl: url };
  if (!(PAID_BUTTON_NAMES as readonly string[]).includes(name)) throw badRequest('PAID_BTN_NAME_INVALID'); // unverified name
  if (url === undefined) throw badRequest('PAID_BTN_URL_REQUIRED');
  if (!/^https?:\/\/\S+$/i.test(url)) throw badRequest('PAID_BTN_URL_INVALID'); // unverified name
  return { paidBtnName: name as PaidButtonName, paidBtnUrl: url };
}

function expiresInOf(params: Params): number | undefined {
  let seconds: number | undefined;
  try {
    seconds = optionalInteger(params, 'expires_in');
  } catch {
    throw badRequest('EXPIRES_IN_INVALID');
  }
  if (seconds !== undefined && (seconds < 1 || seconds > MAX_EXPIRES_IN)) throw badRequest('EXPIRES_IN_INVALID');
  return seconds;
}

function swapToOf(params: Params): string | undefined {
  const swapTo = optionalString(params, 'swap_to');
  if (swapTo !== undefined && !SWAP_ASSETS.includes(swapTo)) throw badRequest('SWAP_TO_INVALID'); // unverified name
  return swapTo;
}

/** The invoice to create; throws CryptopayApiError as the API would answer. */
export function parseInvoiceRequest(params: Params, network: Network): InvoiceRequest {
  const currencyType = currencyTypeOf(params);
  // accepted_assets applies to fiat invoices only; a crypto invoice ignores it.
  const currency = currencyType === 'crypto' ? { asset: assetOf(params, network) } : { ...fiatOf(params), acceptedAssets: acceptedAssetsOf(params, network) };
  const request: InvoiceRequest = {
    currencyType,
    ...currency,
    amount: amountOf(params),
    swapTo: swapToOf(params),
    description: limited(params, 'description', 1024),
    hiddenMessage: limited(params, 'hidden_message', 2048),
    ...paidButtonOf(params),
    payload: limited(params, 'payload', 4096, (t) => Buffer.byteLength(t, 'utf8')),
    allowComments: optionalBoolean(params, 'allow_comments') ?? true,
    allowAnonymous: optionalBoolean(params, 'allow_anonymous') ?? true,
    expiresIn: expiresInOf(params),
  };
  // Absent, not undefined: the invoice object leaves out what was not given.
  return Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)) as unknown as InvoiceRequest;
}
