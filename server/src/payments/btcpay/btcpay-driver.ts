import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Locale } from '../../../../shared/locales.js';
import {
  MalformedEventError,
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutOrder,
  type CheckoutState,
  type PaymentDriver,
  type RefundRequest,
  type RefundResult,
} from '../payment-driver.js';
import { headerValue, withoutProviderSubscriptions } from '../driver-parts.js';
import { decimalToMinor, minorToDecimal } from './btcpay-amounts.js';
import { checkoutStateOf, eventIdOf, INVOICE_EVENT_TYPES, needsPaymentRead, parseWebhookEvent, paymentReadOf } from './btcpay-events.js';
import { GreenfieldError, greenfieldCall, normalizeServerUrl, type GreenfieldTarget } from './btcpay-http.js';
import type { GreenfieldInvoice, GreenfieldPaymentMethod, GreenfieldPullPayment, GreenfieldStore } from './greenfield-types.js';

export interface BtcpayCredentials {
  /** The BTCPay Server's address, e.g. `https://btcpay.example.com`. */
  serverUrl: string;
  storeId: string;
  /** A Greenfield API key of the store (see BTCPAY_API_PERMISSIONS). */
  apiKey: string;
  /** The secret of the store's webhook pointing at us; without it no webhook can be verified. */
  webhookSecret: string | null;
}

export interface BtcpayDriverOptions {
  /** Per request; default 15 s. */
  timeoutMs?: number;
}

/** The permissions the API key needs for everything this driver does (store-scoped, as BTCPay names them). */
export const BTCPAY_API_PERMISSIONS = [
  'btcpay.store.canviewstoresettings',
  'btcpay.store.cancreateinvoice',
  'btcpay.store.canviewinvoices',
  'btcpay.store.canmodifyinvoices',
  'btcpay.store.cancreatenonapprovedpullpayments',
] as const;

const SIGNATURE_PREFIX = 'sha256=';

/** `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the raw body, keyed with the webhook secret>`, compared in constant time. */
function signatureMatches(rawBody: Buffer, header: string, secret: string): boolean {
  if (!header.startsWith(SIGNATURE_PREFIX)) return false;
  const given = Buffer.from(header.slice(SIGNATURE_PREFIX.length).trim().toLowerCase(), 'utf8');
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whole minutes from now until the order expires, at least 1: the invoice never outlives our transaction. */
const expirationMinutes = (expiresAt: Date): number => Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 60_000));

/** BTCPay's checkout languages (its `locales/checkout/<code>.json`) for ours. */
const BTCPAY_LANGUAGES: Partial<Record<Locale, string>> = { ru: 'ru-RU', fa: 'fa', 'zh-CN': 'zh-SP' };

const REFUND_DESCRIPTIONS: Record<NonNullable<RefundRequest['reason']>, string> = {
  requested_by_customer: 'Refund requested by the customer',
  duplicate: 'Refund of a duplicate payment',
  fraudulent: 'Refund of a fraudulent payment',
};

/**
 * A PaymentDriver for one BTCPay Server store, through the Greenfield API (store-scoped routes, which
 * every Greenfield version has). Crypto invoices are one-off: the recurring methods refuse.
 *
 * - A checkout is an invoice; its id is the checkout id and, once paid, the payment ref (refunds name it).
 * - Webhooks are read as "the invoice moved": the invoice is read and reported as it is now.
 * - BTCPay has no idempotency keys: a retried create makes a second invoice (the orderId in its metadata
 *   names the order); a refund's pull payment is named with our refund id, so a retry finds it (listing pull
 *   payments needs the key's `btcpay.store.canviewpullpayments` permission).
 */
/** A BTCPay "account" is one store on one server: a new API key for it is the same account. */
export const btcpayAccountOf = (serverUrl: string, storeId: string): string => `${normalizeServerUrl(serverUrl)}|${storeId}`;

export function createBtcpayDriver(credentials: BtcpayCredentials, options: BtcpayDriverOptions = {}): PaymentDriver {
  const serverUrl = normalizeServerUrl(credentials.serverUrl);
  const { storeId, webhookSecret } = credentials;
  const target: GreenfieldTarget = { serverUrl, apiKey: credentials.apiKey, timeoutMs: options.timeoutMs };
  const storePath = `/api/v1/stores/${encodeURIComponent(storeId)}`;
  const invoicesPath = `${storePath}/invoices`;
  const invoicePath = (invoiceId: string) => `${invoicesPath}/${encodeURIComponent(invoiceId)}`;

  const getInvoice = (invoiceId: string) => greenfieldCall<GreenfieldInvoice>(target, 'Reading the invoice', 'GET', invoicePath(invoiceId));

  /**
   * The invoice as a CheckoutState, with its payment methods read when what was paid, or whether a late
   * payment is confirmed, is not in the invoice itself (see needsPaymentRead).
   */
  async function stateOf(invoice: GreenfieldInvoice): Promise<CheckoutState> {
    const amount = decimalToMinor(invoice.amount, invoice.currency);
    if (amount === null || !needsPaymentRead(invoice)) return checkoutStateOf(invoice);
    const methods = await greenfieldCall<GreenfieldPaymentMethod[]>(
      target,
      'Reading the invoice payments',
      'GET',
      `${invoicePath(invoice.id)}/payment-methods`,
    );
    return checkoutStateOf(invoice, paymentReadOf(amount, invoice.currency, Array.isArray(methods) ? methods : []));
  }

  const readCheckout = async (checkoutId: string) => stateOf(await getInvoice(checkoutId));

  return {
    name: 'btcpay',
    capabilities: { refunds: true, recurring: 'none' },
    identifyAccount: async () => btcpayAccountOf(serverUrl, storeId),
    async ping() {
      await greenfieldCall<GreenfieldStore>(target, 'Reading the store', 'GET', storePath);
    },

    async startCheckout(order: CheckoutOrder) {
      if (order.recurring) throw new PaymentProviderError('BTCPay invoices are one-off', null, true);
      const invoice = await greenfieldCall<GreenfieldInvoice>(target, 'Creating the invoice', 'POST', invoicesPath, {
        amount: minorToDecimal(order.amount, order.currency),
        currency: order.currency.toUpperCase(),
        metadata: {
          ...order.metadata,
          orderId: order.orderId,
          buyerEmail: order.customerEmail,
          itemDesc: order.productName,
          ...(order.discount ? { promoCode: order.discount.code } : {}),
        },
        checkout: {
          // BTCPay fills {InvoiceId} in when it redirects: the invoice id is not known before it exists.
          redirectURL: order.successUrl.replace('{CHECKOUT_ID}', '{InvoiceId}'),
          redirectAutomatically: true,
          expirationMinutes: expirationMinutes(order.expiresAt),
          // The checkout page in the customer's language (English: the store's default, as before).
          ...(order.locale && BTCPAY_LANGUAGES[order.locale] ? { defaultLanguage: BTCPAY_LANGUAGES[order.locale] } : {}),
        },
      });
      if (!invoice.id || !invoice.checkoutLink)
        throw new PaymentProviderError('Creating the invoice: BTCPay Server answered an invoice without a checkout link');
      return { checkoutId: invoice.id, url: invoice.checkoutLink };
    },

    readCheckout,

    /**
     * A New invoice (unpaid, or partly paid) is marked Invalid, so it can no longer be paid, and reported
     * expired; any other is reported as it is. If a payment arrives between the read and the mark, the
     * invoice ends Invalid with money on it: the operator refunds it from BTCPay (BTCPay has no conditional mark).
     */
    async expireCheckout(checkoutId) {
      const invoice = await getInvoice(checkoutId);
      if (invoice.status !== 'New') return stateOf(invoice);
      let marked: GreenfieldInvoice;
      try {
        marked = await greenfieldCall<GreenfieldInvoice>(target, 'Marking the invoice invalid', 'POST', `${invoicePath(checkoutId)}/status`, {
          status: 'Invalid',
        });
      } catch (err) {
        // 422: it moved on meanwhile (expired, paid) and can no longer be marked: what it is now decides.
        if (err instanceof GreenfieldError && err.status === 422) return readCheckout(checkoutId);
        throw err;
      }
      return { ...(await stateOf(marked)), outcome: 'expired' };
    },

    async verifyWebhook(rawBody, headers) {
      const signature = headerValue(headers, 'btcpay-sig');
      if (!webhookSecret || !signature || !signatureMatches(rawBody, signature, webhookSecret)) throw new WebhookSignatureError();
      const event = parseWebhookEvent(rawBody);
      if (!event) throw new MalformedEventError('The webhook body is not a BTCPay Server event.');
      const id = eventIdOf(event);
      const ours = event.storeId === undefined || event.storeId === storeId;
      if (!INVOICE_EVENT_TYPES.has(event.type) || !event.invoiceId || !ours) return { id, type: event.type, event: null };
      try {
        return { id, type: event.type, event: { kind: 'checkout', checkout: await readCheckout(event.invoiceId) } };
      } catch (err) {
        // An invoice the store does not have (deleted, or never ours): nothing to apply, ever. Acknowledged, so
        // BTCPay stops delivering it; any other failure (BTCPay down, a wrong address) is delivered again.
        if (err instanceof GreenfieldError && err.status === 404 && err.code === 'invoice-not-found') {
          return { id, type: event.type, event: null, ignored: `BTCPay Server does not know invoice ${event.invoiceId}` };
        }
        throw err;
      }
    },

    /**
     * BTCPay cannot send crypto back by itself: the refund is a pull payment, in the invoice currency, whose
     * page (`claimUrl`) the customer opens to give an address. The whole amount paid ('Fiat': at the rate
     * when it is claimed) or `amount` ('Custom'). Pending until claimed and paid out; `idempotencyKey` is not
     * sent (BTCPay has none: `refundRef` in the name stands for it) and `metadata` is not kept (pull payments have none).
     */
    async refund(request: RefundRequest): Promise<RefundResult> {
      const invoice = await getInvoice(request.paymentRef);
      const currency = invoice.currency.toUpperCase();
      const orderId = typeof invoice.metadata?.orderId === 'string' ? invoice.metadata.orderId : invoice.id;
      const resultOf = (pullPayment: GreenfieldPullPayment): RefundResult => {
        const refunded = pullPayment.currency?.toUpperCase() === currency ? decimalToMinor(pullPayment.amount, currency) : null;
        return {
          refundId: pullPayment.id,
          amount: refunded ?? request.amount ?? decimalToMinor(invoice.amount, currency) ?? 0,
          status: 'pending',
          claimUrl: pullPayment.viewLink,
        };
      };
      // BTCPay takes no idempotency key: the pull payment is named with our refund id, and a retry finds the one an
      // earlier attempt made (archived ones too) instead of making a second claimable refund.
      const name = `Refund ${request.refundRef} of order ${orderId}`;
      if (request.retry) {
        const made = await greenfieldCall<GreenfieldPullPayment[]>(target, 'Looking for the refund', 'GET', `${storePath}/pull-payments?includeArchived=true`);
        const found = Array.isArray(made) ? made.find((pullPayment) => pullPayment.name === name) : undefined;
        if (found) return resultOf(found);
      }
      const variant =
        request.amount === undefined
          ? { refundVariant: 'Fiat' }
          : { refundVariant: 'Custom', customAmount: minorToDecimal(request.amount, currency), customCurrency: currency };
      const pullPayment = await greenfieldCall<GreenfieldPullPayment>(target, 'Refunding the invoice', 'POST', `${invoicePath(invoice.id)}/refund`, {
        name,
        ...(request.reason ? { description: REFUND_DESCRIPTIONS[request.reason] } : {}),
        ...variant,
      });
      return resultOf(pullPayment);
    },

    ...withoutProviderSubscriptions('Not supported by BTCPay: crypto payments are one-off'),
  };
}

/**
 * Reads the store with these keys (what saving the admin's BTCPay settings checks first): its name, or a
 * PaymentProviderError saying why not. BTCPay answers 403 for a store id the key cannot see, whether it
 * exists or not, so a wrong store id usually reads as a refused key for that store.
 */
export async function testBtcpayConnection(
  store: { serverUrl: string; storeId: string; apiKey: string },
  options: BtcpayDriverOptions = {},
): Promise<{ name: string }> {
  const target: GreenfieldTarget = { serverUrl: normalizeServerUrl(store.serverUrl), apiKey: store.apiKey, timeoutMs: options.timeoutMs };
  let found: GreenfieldStore;
  try {
    found = await greenfieldCall<GreenfieldStore>(target, 'Reading the store', 'GET', `/api/v1/stores/${encodeURIComponent(store.storeId)}`);
  } catch (err) {
    if (!(err instanceof GreenfieldError)) throw err;
    if (err.status === 401) throw new PaymentProviderError('The API key was refused', err.code, true);
    if (err.status === 403) {
      throw new PaymentProviderError(
        'The API key was refused for this store: check the store id, and that the key may view the store settings',
        err.code,
        true,
      );
    }
    if (err.status === 404) throw new PaymentProviderError('Store not found', err.code, true);
    throw err;
  }
  if (typeof found.name !== 'string')
    throw new PaymentProviderError('Reading the store: BTCPay Server answered without a store name (is the server address right?)');
  return { name: found.name };
}
