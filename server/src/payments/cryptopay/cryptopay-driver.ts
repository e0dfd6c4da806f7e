import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
import { PaymentProviderError, WebhookSignatureError, type CheckoutOrder, type CheckoutState, type PaymentDriver } from '../payment-driver.js';
import { headerValue, withoutProviderSubscriptions } from '../driver-parts.js';
import { CRYPTOPAY_API_URLS, CryptopayError, cryptopayCall, type CryptopayNetwork, type CryptopayTarget } from './cryptopay-http.js';
import type { CryptopayApp, CryptopayInvoice, CryptopayUpdate } from './cryptopay-types.js';

export interface CryptopayCredentials {
  /** The app's API token (Crypto Pay → My Apps → the app → API Token). */
  token: string;
  network: CryptopayNetwork;
  /** The coins a customer may pay with (USDT, TON, …); all Crypto Pay takes when empty. */
  assets: string[];
}

export interface CryptopayDriverOptions {
  /** CRYPTOPAY_API_URL: the fake in tests and demos (for either network). */
  apiUrl?: string;
  timeoutMs?: number;
}

const SIGNATURE_HEADER = 'crypto-pay-api-signature';
/** Crypto Pay's limits on an invoice. */
const MAX_DESCRIPTION = 1024;
const MAX_EXPIRES_IN = 2_678_400;
/** getInvoices answers at most this many. */
const MAX_READ = 1000;
/** Testnet invoice ids are another sequence than mainnet's: ours keep them apart. */
const TESTNET_PREFIX = 'testnet-';

/** The app each token reaches, by a hash of the token (it never changes for a token). */
const appOfToken = new Map<string, Promise<string>>();

/** The hex HMAC-SHA-256 of the raw body, keyed with the (binary) SHA-256 of the token, compared in constant time. */
export function cryptopaySignatureMatches(rawBody: Buffer, header: string, token: string): boolean {
  const key = createHash('sha256').update(token).digest();
  const expected = Buffer.from(createHmac('sha256', key).update(rawBody).digest('hex'), 'utf8');
  const given = Buffer.from(header.trim().toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Our order id, from the payload we gave the invoice (an invoice of the operator's own, made elsewhere, has none). */
function orderIdOf(payload: string | undefined): string | null {
  if (!payload) return null;
  try {
    const parsed = JSON.parse(payload) as { order_id?: unknown };
    return typeof parsed.order_id === 'string' ? parsed.order_id : null;
  } catch {
    return null;
  }
}

/**
 * A PaymentDriver for one Crypto Pay app (help.crypt.bot/crypto-pay-api). A checkout is a fiat invoice in the
 * store's currency, payable in the coins the admin accepts; our order id rides in its `payload`.
 *
 * - Webhooks (`invoice_paid` only) are verified by their signature before anything in them is read.
 * - Expiry sends no webhook: open invoices are asked for (getInvoices, many at once) until paid or expired.
 * - Crypto Pay cannot send money back: refunds of its payments go to the customer's wallet here, or are paid by hand.
 */
export function createCryptopayDriver(credentials: CryptopayCredentials, options: CryptopayDriverOptions = {}): PaymentDriver {
  const { token, network } = credentials;
  const target: CryptopayTarget = { apiUrl: options.apiUrl ?? CRYPTOPAY_API_URLS[network], token, timeoutMs: options.timeoutMs };
  const checkoutIdOf = (invoiceId: number) => (network === 'testnet' ? `${TESTNET_PREFIX}${invoiceId}` : String(invoiceId));
  const invoiceIdOf = (checkoutId: string) => Number(checkoutId.startsWith(TESTNET_PREFIX) ? checkoutId.slice(TESTNET_PREFIX.length) : checkoutId);

  function stateOf(invoice: CryptopayInvoice): CheckoutState {
    const currency = (invoice.fiat ?? invoice.asset ?? '').toLowerCase();
    const outcome = invoice.status === 'paid' ? 'paid' : invoice.status === 'expired' ? 'expired' : 'open';
    const checkoutId = checkoutIdOf(invoice.invoice_id);
    return {
      checkoutId,
      orderId: orderIdOf(invoice.payload),
      outcome,
      // A fiat invoice is paid in full or not at all: what it asked for, in its fiat.
      amountPaid: outcome === 'paid' ? decimalToMinor(invoice.amount, currency) : null,
      currency: currency || null,
      paymentRef: checkoutId,
      // Nobody declines a Crypto Pay invoice: one that ran out was left unpaid.
      expiredUnpaid: outcome === 'expired',
    };
  }

  /** A checkout the API no longer lists was deleted (closed unpaid: a paid invoice cannot be deleted). */
  const gone = (checkoutId: string): CheckoutState => ({
    checkoutId,
    orderId: null,
    outcome: 'expired',
    amountPaid: null,
    currency: null,
    paymentRef: null,
    expiredUnpaid: true,
  });

  async function readMany(checkoutIds: string[]): Promise<CheckoutState[]> {
    const states: CheckoutState[] = [];
    for (let start = 0; start < checkoutIds.length; start += MAX_READ) {
      const ids = checkoutIds
        .slice(start, start + MAX_READ)
        .map(invoiceIdOf)
        .filter((id) => Number.isSafeInteger(id) && id > 0);
      if (ids.length === 0) continue;
      const { items } = await cryptopayCall<{ items: CryptopayInvoice[] }>(target, 'Reading the invoices', 'getInvoices', {
        invoice_ids: ids.join(','),
        count: MAX_READ,
      });
      states.push(...(items ?? []).map(stateOf));
    }
    return states;
  }

  async function readCheckout(checkoutId: string): Promise<CheckoutState> {
    const [state] = await readMany([checkoutId]);
    return state ?? gone(checkoutId);
  }

  return {
    name: 'cryptopay',
    capabilities: { refunds: false, recurring: 'none' },

    /** The app is the account (a new token of the same app is the same account); read once per token. */
    async ping() {
      await cryptopayCall<CryptopayApp>(target, 'Reading the app', 'getMe');
    },
    identifyAccount() {
      const key = createHash('sha256').update(`${network}\0${token}`).digest('hex');
      let known = appOfToken.get(key);
      if (!known) {
        if (appOfToken.size > 50) appOfToken.clear();
        known = cryptopayCall<CryptopayApp>(target, 'Reading the app', 'getMe').then((app) => `${network}:${app.app_id}`);
        appOfToken.set(key, known);
        known.catch(() => appOfToken.delete(key));
      }
      return known;
    },

    async startCheckout(order: CheckoutOrder) {
      if (order.recurring || order.saveMethod) throw new PaymentProviderError('Crypto Pay invoices are one-off', null, true);
      const expiresIn = Math.min(MAX_EXPIRES_IN, Math.max(60, Math.floor((order.expiresAt.getTime() - Date.now()) / 1000)));
      const invoice = await cryptopayCall<CryptopayInvoice>(target, 'Creating the invoice', 'createInvoice', {
        currency_type: 'fiat',
        fiat: order.currency.toUpperCase(),
        amount: minorToDecimal(order.amount, order.currency),
        ...(credentials.assets.length > 0 ? { accepted_assets: credentials.assets.join(',') } : {}),
        description: `${order.productName}. ${order.description}`.slice(0, MAX_DESCRIPTION),
        payload: JSON.stringify({ order_id: order.orderId }),
        // After paying, the invoice page's button brings the customer back (the invoice id is not known before it exists).
        paid_btn_name: 'callback',
        paid_btn_url: order.successUrl.replace('{CHECKOUT_ID}', encodeURIComponent(order.orderId)),
        allow_comments: false,
        expires_in: expiresIn,
      });
      const url = invoice.web_app_invoice_url ?? invoice.bot_invoice_url;
      if (!invoice.invoice_id || !url) throw new PaymentProviderError('Creating the invoice: Crypto Pay answered an invoice without a page');
      return { checkoutId: checkoutIdOf(invoice.invoice_id), url };
    },

    readCheckout,
    readCheckouts: readMany,

    /** An active invoice is deleted (it can no longer be paid) and reported expired; a paid one cannot be and is reported as it is. */
    async expireCheckout(checkoutId) {
      const current = await readCheckout(checkoutId);
      if (current.outcome !== 'open') return current;
      try {
        await cryptopayCall<boolean>(target, 'Deleting the invoice', 'deleteInvoice', { invoice_id: invoiceIdOf(checkoutId) });
      } catch (err) {
        // Paid (or gone) meanwhile: what it is now decides.
        if (err instanceof CryptopayError && err.status === 400) return readCheckout(checkoutId);
        throw err;
      }
      return { ...current, outcome: 'expired', expiredUnpaid: true };
    },

    async verifyWebhook(rawBody, headers) {
      const signature = headerValue(headers, SIGNATURE_HEADER);
      if (!signature || !cryptopaySignatureMatches(rawBody, signature, token)) throw new WebhookSignatureError();
      let update: CryptopayUpdate;
      try {
        update = JSON.parse(rawBody.toString('utf8')) as CryptopayUpdate;
      } catch {
        throw new WebhookSignatureError('The body is not a Crypto Pay update.');
      }
      const invoice = update?.payload;
      if (update?.update_type !== 'invoice_paid' || !invoice || typeof invoice.invoice_id !== 'number') {
        return { id: `${String(update?.update_type)}:${String(update?.update_id)}`, type: String(update?.update_type), event: null };
      }
      // update_id is not unique (Crypto Pay says so): the invoice is what is paid once.
      const state = stateOf(invoice);
      return { id: `invoice_paid:${state.checkoutId}`, type: 'invoice_paid', event: state.orderId ? { kind: 'checkout', checkout: state } : null };
    },

    refund: () =>
      Promise.reject(new PaymentProviderError("Crypto Pay cannot refund an invoice: refund to the customer's wallet, or pay back by hand", null, true)),
    ...withoutProviderSubscriptions('Not supported by Crypto Pay: invoices are one-off and cannot be refunded'),
  };
}

/** Reads the app with this token (what saving the admin's Crypto Pay settings checks first). */
export async function testCryptopayConnection(keys: { token: string; network: CryptopayNetwork }, options: CryptopayDriverOptions = {}): Promise<CryptopayApp> {
  const target: CryptopayTarget = { apiUrl: options.apiUrl ?? CRYPTOPAY_API_URLS[keys.network], token: keys.token, timeoutMs: options.timeoutMs };
  try {
    return await cryptopayCall<CryptopayApp>(target, 'Reading the app', 'getMe');
  } catch (err) {
    if (err instanceof CryptopayError && err.status === 401) throw new PaymentProviderError(`The API token was refused on ${keys.network}`, err.code, true);
    throw err;
  }
}
