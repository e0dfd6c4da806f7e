import {
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutOrder,
  type CheckoutState,
  type RefundRequest,
  type RefundResult,
  type SavedMethodCharge,
  type VerifiedWebhook,
} from '../payment-driver.js';
import { YookassaError, yookassaCall, type YookassaTarget } from './yookassa-http.js';
import { amountOf, checkoutStateOf, MAX_DESCRIPTION, metadataOf, minorOf, receiptOf, truncate, type YookassaReceipts } from './yookassa-mapping.js';
import type { YookassaList, YookassaNotification, YookassaPayment, YookassaRefund } from './yookassa-types.js';

/**
 * The YooKassa driver's requests: a checkout's payment, a notification read back from the shop, a refund
 * (found again on a retry) and a charge of a saved method.
 */

/** One YooKassa shop as the driver talks to it: its API target, and its receipt settings when receipts are on. */
export interface YookassaShopApi {
  target: YookassaTarget;
  receipts: YookassaReceipts | null;
}

export const getPayment = (target: YookassaTarget, id: string) =>
  yookassaCall<YookassaPayment>(target, 'Reading the payment', 'GET', `/payments/${encodeURIComponent(id)}`);
const getRefund = (target: YookassaTarget, id: string) =>
  yookassaCall<YookassaRefund>(target, 'Reading the refund', 'GET', `/refunds/${encodeURIComponent(id)}`);

/** A notification's object, read back from this shop; one it does not know is not ours (WebhookSignatureError). */
async function readBack<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof YookassaError && err.status === 404)
      throw new WebhookSignatureError('The notification names an object this YooKassa shop does not have.');
    throw err;
  }
}

async function refundedEvent(target: YookassaTarget, refundId: string): Promise<VerifiedWebhook> {
  const refund = await readBack(() => getRefund(target, refundId));
  const id = `refund:${refund.id}:${refund.status}`;
  if (refund.status !== 'succeeded') return { id, type: `refund.${refund.status}`, event: null };
  const payment = await getPayment(target, refund.payment_id);
  const refunded = minorOf(payment.refunded_amount);
  return {
    id,
    type: 'refund.succeeded',
    event: {
      kind: 'refunded',
      paymentRef: payment.id,
      amountRefunded: refunded,
      currency: payment.amount.currency.toLowerCase(),
      fullyRefunded: refunded >= minorOf(payment.amount),
    },
  };
}

export async function startCheckout(shop: YookassaShopApi, order: CheckoutOrder) {
  if (order.recurring) throw new PaymentProviderError('YooKassa has no subscriptions: a recurring plan saves the payment method instead', null, true);
  const payment = await yookassaCall<YookassaPayment>(shop.target, 'Creating the payment', 'POST', '/payments', {
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
      ...receiptOf(shop.receipts, order.customerEmail, order.productName, order.amount, order.currency),
    },
  });
  const url = payment.confirmation?.confirmation_url;
  if (!payment.id || !url) throw new PaymentProviderError('Creating the payment: YooKassa answered a payment without a confirmation page');
  return { checkoutId: payment.id, url };
}

export async function verifyNotification(target: YookassaTarget, rawBody: Buffer): Promise<VerifiedWebhook> {
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
    const payment = await readBack(() => getPayment(target, objectId));
    // Keyed by what the API says, not what the notification claimed: a forged "succeeded" for a pending
    // payment is recorded as its pending read, and the real one later still applies.
    return {
      id: `payment:${payment.id}:${payment.status}`,
      type: `payment.${payment.status}`,
      event: { kind: 'checkout', checkout: checkoutStateOf(payment) },
    };
  }
  if (notification.event.startsWith('refund.')) return refundedEvent(target, objectId);
  return { id: `${notification.event}:${objectId}`, type: notification.event, event: null };
}

/**
 * A refund of the whole remainder (read from the payment) or of `amount`, with our refund id in its
 * metadata: a retry first looks for the refund an earlier attempt made (the idempotence key also covers 24 hours).
 */
export async function refundPayment(shop: YookassaShopApi, request: RefundRequest): Promise<RefundResult> {
  const resultOf = (refund: YookassaRefund): RefundResult => ({
    refundId: refund.id,
    amount: minorOf(refund.amount),
    status: refund.status === 'succeeded' ? 'succeeded' : refund.status === 'canceled' ? 'failed' : 'pending',
  });
  if (request.retry) {
    const made = await yookassaCall<YookassaList<YookassaRefund>>(shop.target, 'Looking for the refund', 'GET', '/refunds', {
      query: { payment_id: request.paymentRef, limit: '100' },
    });
    const found = made.items?.find((refund) => refund.metadata?.refund_ref === request.refundRef);
    if (found) return resultOf(found);
  }
  const payment = await getPayment(shop.target, request.paymentRef);
  const currency = payment.amount.currency;
  const amount = request.amount ?? minorOf(payment.amount) - minorOf(payment.refunded_amount);
  const refund = await yookassaCall<YookassaRefund>(shop.target, 'Refunding the payment', 'POST', '/refunds', {
    idempotenceKey: request.idempotencyKey,
    body: {
      payment_id: payment.id,
      amount: amountOf(amount, currency),
      ...(request.reason ? { description: request.reason.replaceAll('_', ' ') } : {}),
      metadata: { ...request.metadata, refund_ref: request.refundRef },
      ...(request.receipt ? receiptOf(shop.receipts, request.receipt.customerEmail, request.receipt.description, amount, currency) : {}),
    },
  });
  return resultOf(refund);
}

/** A renewal: the saved method is charged without the customer, at once (the answer is usually final, and may be pending). */
export async function chargeSavedMethod(shop: YookassaShopApi, charge: SavedMethodCharge): Promise<CheckoutState> {
  const payment = await yookassaCall<YookassaPayment>(shop.target, 'Charging the saved payment method', 'POST', '/payments', {
    idempotenceKey: charge.idempotencyKey,
    body: {
      amount: amountOf(charge.amount, charge.currency),
      capture: true,
      payment_method_id: charge.methodRef,
      description: truncate(charge.description, MAX_DESCRIPTION),
      metadata: metadataOf(charge.orderId, charge.metadata),
      ...receiptOf(shop.receipts, charge.customerEmail, charge.description, charge.amount, charge.currency),
    },
  });
  return checkoutStateOf(payment);
}
