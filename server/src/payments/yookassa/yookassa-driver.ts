import { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutOrder,
  type CheckoutState,
  type PaymentDriver,
  type RefundRequest,
  type RefundResult,
  type SavedMethodCharge,
  type VerifiedWebhook,
} from '../payment-driver.js';
import { withoutProviderSubscriptions } from '../driver-parts.js';
import { YOOKASSA_API_URL, YookassaError, yookassaCall, type YookassaTarget } from './yookassa-http.js';
import type { YookassaList, YookassaNotification, YookassaPayment, YookassaRefund, YookassaShop } from './yookassa-types.js';

/** 54-FZ receipts: YooKassa sends one to the customer's e-mail for every payment and refund (when the shop fiscalizes). */
export interface YookassaReceipts {
  enabled: boolean;
  /** The VAT of what is sold (YooKassa's `vat_code`, 1–12: 1 = no VAT, 4 = 20 %, 11 = 22 %). */
  vatCode: number;
  /** The shop's tax system (`tax_system_code`, 1–6), when its cash register needs it. */
  taxSystemCode: number | null;
}

export interface YookassaCredentials {
  shopId: string;
  secretKey: string;
  receipts?: YookassaReceipts | null;
}

export interface YookassaDriverOptions {
  /** YOOKASSA_API_URL: the fake in tests and demos. */
  apiUrl?: string;
  timeoutMs?: number;
}

/** YooKassa's limits on a payment's fields. */
const MAX_DESCRIPTION = 128;
const MAX_METADATA_KEYS = 16;
const MAX_METADATA_KEY = 32;
const MAX_METADATA_VALUE = 512;


const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The order's names, as YooKassa keeps metadata: at most 16 string keys of 32 characters, values of 512. */
function metadataOf(orderId: string, extra: Record<string, string>): Record<string, string> {
  const entries = [['order_id', orderId] as const, ...Object.entries(extra).filter(([key]) => key !== 'order_id')]
    .filter(([key]) => key.length <= MAX_METADATA_KEY)
    .slice(0, MAX_METADATA_KEYS)
    .map(([key, value]) => [key, truncate(value, MAX_METADATA_VALUE)] as const);
  return Object.fromEntries(entries);
}

const amountOf = (minor: number, currency: string) => ({ value: minorToDecimal(minor, currency), currency: currency.toUpperCase() });

const minorOf = (amount: { value: string; currency: string } | undefined): number => (amount ? decimalToMinor(amount.value, amount.currency) ?? 0 : 0);

/** The payment as our checkout state. A confirmation that ran out is `expired`; any other cancellation is a decline. */
export function checkoutStateOf(payment: YookassaPayment): CheckoutState {
  const outcome = payment.status === 'succeeded' ? 'paid' : payment.status === 'canceled'
    ? (payment.cancellation_details?.reason === 'expired_on_confirmation' ? 'expired' : 'failed')
    : 'open';
  const method = payment.payment_method;
  return {
    checkoutId: payment.id,
    orderId: payment.metadata?.order_id ?? null,
    outcome,
    amountPaid: outcome === 'paid' ? minorOf(payment.amount) : null,
    currency: payment.amount.currency.toLowerCase(),
    paymentRef: payment.id,
    savedMethod: method?.saved ? { ref: method.id, title: method.title ?? (method.card ? `Bank card *${method.card.last4}` : method.type) } : null,
    declineReason: payment.cancellation_details?.reason ?? null,
  };
}

/**
 * A PaymentDriver for one YooKassa shop, through API v3 (yookassa.ru/developers/api).
 *
 * - A checkout is a payment with `confirmation: redirect` and `capture: true` (one stage: YooKassa's default
 *   would hold the money until captured); its id is the checkout id and the payment ref.
 * - Every POST carries an Idempotence-Key made from our own ids, so a retry is the same operation.
 * - Notifications are not signed: nothing in one is believed. Its object is read back from this shop's API,
 *   and what the API says is reported (an object this shop does not know is refused as unsigned).
 * - Recurring plans are renewed by our own job, charging the method the first payment saved.
 */
export function createYookassaDriver(credentials: YookassaCredentials, options: YookassaDriverOptions = {}): PaymentDriver {
  const target: YookassaTarget = { apiUrl: options.apiUrl ?? YOOKASSA_API_URL, shopId: credentials.shopId, secretKey: credentials.secretKey, timeoutMs: options.timeoutMs };
  const receipts = credentials.receipts?.enabled ? credentials.receipts : null;

  const getPayment = (id: string) => yookassaCall<YookassaPayment>(target, 'Reading the payment', 'GET', `/payments/${encodeURIComponent(id)}`);
  const getRefund = (id: string) => yookassaCall<YookassaRefund>(target, 'Reading the refund', 'GET', `/refunds/${encodeURIComponent(id)}`);

  /** The receipt of a sale of one service at `minor` (54-FZ), when receipts are on. */
  function receiptOf(email: string, description: string, minor: number, currency: string) {
    if (!receipts) return {};
    return {
      receipt: {
        customer: { email },
        items: [{ description: truncate(description, MAX_DESCRIPTION), quantity: 1, amount: amountOf(minor, currency), vat_code: receipts.vatCode, payment_mode: 'full_payment', payment_subject: 'service' }],
        ...(receipts.taxSystemCode ? { tax_system_code: receipts.taxSystemCode } : {}),
      },
    };
  }

  /** A notification's object, read back from this shop; one it does not know is not ours (WebhookSignatureError). */
  async function readBack<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof YookassaError && err.status === 404) throw new WebhookSignatureError('The notification names an object this YooKassa shop does not have.');
      throw err;
    }
  }

  async function refundedEvent(refundId: string): Promise<VerifiedWebhook> {
    const refund = await readBack(() => getRefund(refundId));
    const id = `refund:${refund.id}:${refund.status}`;
    if (refund.status !== 'succeeded') return { id, type: `refund.${refund.status}`, event: null };
    const payment = await getPayment(refund.payment_id);
    const refunded = minorOf(payment.refunded_amount);
    return {
      id, type: 'refund.succeeded',
      event: { kind: 'refunded', paymentRef: payment.id, amountRefunded: refunded, currency: payment.amount.currency.toLowerCase(), fullyRefunded: refunded >= minorOf(payment.amount) },
    };
  }

  return {
    name: 'yookassa',
    capabilities: { refunds: true, recurring: 'saved_methods' },

    /** The shop is the account: a new secret key of the same shop is the same account. */
    identifyAccount: async () => credentials.shopId,
    async ping() {
      await yookassaCall<YookassaShop>(target, 'Reading the shop', 'GET', '/me');
    },

    async startCheckout(order: CheckoutOrder) {
      if (order.recurring) throw new PaymentProviderError('YooKassa has no subscriptions: a recurring plan saves the payment method instead', null, true);
      const payment = await yookassaCall<YookassaPayment>(target, 'Creating the payment', 'POST', '/payments', {
        idempotenceKey: `checkout:${order.orderId}`,
        body: {
          amount: amountOf(order.amount, order.currency),
          capture: true,
          confirmation: {
            type: 'redirect',
            // The payment's id is YooKassa's, made by this call: the customer comes back with our order id instead.
            return_url: order.successUrl.replace('{CHECKOUT_ID}', encodeURIComponent(order.orderId)),
            locale: order.locale === 'ru' ? 'ru_RU' : 'en_US',
          },
          description: truncate(order.productName, MAX_DESCRIPTION),
          metadata: metadataOf(order.orderId, order.metadata),
          ...(order.saveMethod ? { save_payment_method: true } : {}),
          ...receiptOf(order.customerEmail, order.productName, order.amount, order.currency),
        },
      });
      const url = payment.confirmation?.confirmation_url;
      if (!payment.id || !url) throw new PaymentProviderError('Creating the payment: YooKassa answered a payment without a confirmation page');
      return { checkoutId: payment.id, url };
    },

    readCheckout: async (checkoutId) => checkoutStateOf(await getPayment(checkoutId)),

    /** A pending payment cannot be cancelled through the API (YooKassa closes it when its hour runs out): it is reported as it is. */
    expireCheckout: async (checkoutId) => checkoutStateOf(await getPayment(checkoutId)),

    async verifyWebhook(rawBody) {
      let notification: YookassaNotification;
      try {
        notification = JSON.parse(rawBody.toString('utf8')) as YookassaNotification;
      } catch {
        throw new WebhookSignatureError('The body is not a YooKassa notification.');
      }
      const objectId = notification?.object?.id;
      if (notification?.type !== 'notification' || typeof notification.event !== 'string' || typeof objectId !== 'string' || objectId === '') {
        throw new WebhookSignatureError('The body is not a YooKassa notification.');
      }
      if (notification.event.startsWith('payment.')) {
        const payment = await readBack(() => getPayment(objectId));
        // Keyed by what the API says, not what the notification claimed: a forged "succeeded" for a pending
        // payment is recorded as its pending read, and the real one later still applies.
        return { id: `payment:${payment.id}:${payment.status}`, type: `payment.${payment.status}`, event: { kind: 'checkout', checkout: checkoutStateOf(payment) } };
      }
      if (notification.event.startsWith('refund.')) return refundedEvent(objectId);
      return { id: `${notification.event}:${objectId}`, type: notification.event, event: null };
    },

    /**
     * A refund of the whole remainder (read from the payment) or of `amount`, with our refund id in its
     * metadata: a retry first looks for the refund an earlier attempt made (the idempotence key also covers 24 hours).
     */
    async refund(request: RefundRequest): Promise<RefundResult> {
      const resultOf = (refund: YookassaRefund): RefundResult => ({
        refundId: refund.id, amount: minorOf(refund.amount), status: refund.status === 'succeeded' ? 'succeeded' : refund.status === 'canceled' ? 'failed' : 'pending',
      });
      if (request.retry) {
        const made = await yookassaCall<YookassaList<YookassaRefund>>(target, 'Looking for the refund', 'GET', '/refunds', { query: { payment_id: request.paymentRef, limit: '100' } });
        const found = made.items?.find((refund) => refund.metadata?.refund_ref === request.refundRef);
        if (found) return resultOf(found);
      }
      const payment = await getPayment(request.paymentRef);
      const currency = payment.amount.currency;
      const amount = request.amount ?? minorOf(payment.amount) - minorOf(payment.refunded_amount);
      const refund = await yookassaCall<YookassaRefund>(target, 'Refunding the payment', 'POST', '/refunds', {
        idempotenceKey: request.idempotencyKey,
        body: {
          payment_id: payment.id,
          amount: amountOf(amount, currency),
          ...(request.reason ? { description: request.reason.replaceAll('_', ' ') } : {}),
          metadata: { ...request.metadata, refund_ref: request.refundRef },
          ...(request.receipt ? receiptOf(request.receipt.customerEmail, request.receipt.description, amount, currency) : {}),
        },
      });
      return resultOf(refund);
    },

    /** A renewal: the saved method is charged without the customer, at once (the answer is usually final, and may be pending). */
    async chargeSavedMethod(charge: SavedMethodCharge): Promise<CheckoutState> {
      const payment = await yookassaCall<YookassaPayment>(target, 'Charging the saved payment method', 'POST', '/payments', {
        idempotenceKey: charge.idempotencyKey,
        body: {
          amount: amountOf(charge.amount, charge.currency),
          capture: true,
          payment_method_id: charge.methodRef,
          description: truncate(charge.description, MAX_DESCRIPTION),
          metadata: metadataOf(charge.orderId, charge.metadata),
          ...receiptOf(charge.customerEmail, charge.description, charge.amount, charge.currency),
        },
      });
      return checkoutStateOf(payment);
    },

    ...withoutProviderSubscriptions('Not supported by YooKassa: its recurring payments are charges of a saved method'),
  };
}

/**
 * Reads the shop with these keys (what saving the admin's YooKassa settings checks first): the shop, or a
 * PaymentProviderError saying why not. The shop the key reaches must be the shop id given.
 */
export async function testYookassaConnection(keys: { shopId: string; secretKey: string }, options: YookassaDriverOptions = {}): Promise<YookassaShop> {
  const target: YookassaTarget = { apiUrl: options.apiUrl ?? YOOKASSA_API_URL, shopId: keys.shopId, secretKey: keys.secretKey, timeoutMs: options.timeoutMs };
  let shop: YookassaShop;
  try {
    shop = await yookassaCall<YookassaShop>(target, 'Reading the shop', 'GET', '/me');
  } catch (err) {
    if (err instanceof YookassaError && err.status === 401) throw new PaymentProviderError('The shop id or the secret key was refused', err.code, true);
    throw err;
  }
  if (String(shop.account_id) !== keys.shopId) throw new PaymentProviderError(`The secret key belongs to shop ${shop.account_id}, not ${keys.shopId}`, null, true);
  if (shop.status === 'disabled') throw new PaymentProviderError('YooKassa says this shop is disabled', null, true);
  return shop;
}
