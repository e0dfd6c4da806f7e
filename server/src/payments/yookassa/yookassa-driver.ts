import { PaymentProviderError, type PaymentDriver } from '../payment-driver.js';
import { withoutProviderSubscriptions } from '../driver-parts.js';
import { YOOKASSA_API_URL, YookassaError, yookassaCall, type YookassaTarget } from './yookassa-http.js';
import { checkoutStateOf, type YookassaReceipts } from './yookassa-mapping.js';
import { chargeSavedMethod, getPayment, refundPayment, startCheckout, verifyNotification, type YookassaShopApi } from './yookassa-requests.js';
import type { YookassaShop } from './yookassa-types.js';

export { checkoutStateOf, type YookassaReceipts } from './yookassa-mapping.js';

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

/**
 * A PaymentDriver for one YooKassa shop, through API v3 (yookassa.ru/developers/api). The requests are in
 * yookassa-requests.ts, the mapping of amounts, metadata and receipts in yookassa-mapping.ts.
 *
 * - A checkout is a payment with `confirmation: redirect` and `capture: true` (one stage: YooKassa's default
 *   would hold the money until captured); its id is the checkout id and the payment ref.
 * - Every POST carries an Idempotence-Key made from our own ids, so a retry is the same operation.
 * - Notifications are not signed: nothing in one is believed. Its object is read back from this shop's API,
 *   and what the API says is reported (an object this shop does not know is refused as unsigned).
 * - Recurring plans are renewed by our own job, charging the method the first payment saved.
 */
export function createYookassaDriver(credentials: YookassaCredentials, options: YookassaDriverOptions = {}): PaymentDriver {
  const target: YookassaTarget = {
    apiUrl: options.apiUrl ?? YOOKASSA_API_URL,
    shopId: credentials.shopId,
    secretKey: credentials.secretKey,
    timeoutMs: options.timeoutMs,
  };
  const shop: YookassaShopApi = { target, receipts: credentials.receipts?.enabled ? credentials.receipts : null };

  return {
    name: 'yookassa',
    capabilities: { refunds: true, recurring: 'saved_methods', emailRequired: shop.receipts !== null },

    /** The shop is the account: a new secret key of the same shop is the same account. */
    identifyAccount: async () => credentials.shopId,
    async ping() {
      await yookassaCall<YookassaShop>(target, 'Reading the shop', 'GET', '/me');
    },

    startCheckout: (order) => startCheckout(shop, order),

    readCheckout: async (checkoutId) => checkoutStateOf(await getPayment(target, checkoutId)),

    /** A pending payment cannot be cancelled through the API (YooKassa closes it when its hour runs out): it is reported as it is. */
    expireCheckout: async (checkoutId) => checkoutStateOf(await getPayment(target, checkoutId)),

    verifyWebhook: (rawBody) => verifyNotification(target, rawBody),

    refund: (request) => refundPayment(shop, request),

    chargeSavedMethod: (charge) => chargeSavedMethod(shop, charge),

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
  if (String(shop.account_id) !== keys.shopId)
    throw new PaymentProviderError(`The secret key belongs to shop ${shop.account_id}, not ${keys.shopId}`, null, true);
  if (shop.status === 'disabled') throw new PaymentProviderError('YooKassa says this shop is disabled', null, true);
  return shop;
}
