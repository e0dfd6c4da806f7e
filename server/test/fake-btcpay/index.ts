/**
 * A local stand-in for the parts of BTCPay Server's Greenfield API this project uses, for tests and local
 * demos: point the BTCPay driver's `serverUrl` at `fake.url`.
 */
export { startFakeBtcpay } from './fake-btcpay.js';
export type { FakeBtcpay, FakeBtcpayDelivery, FakeBtcpayOptions, FakeBtcpayRequest } from './handle-types.js';
export type {
  InvoiceAdditionalStatus,
  InvoiceObject,
  InvoiceStatus,
  PaymentMethodObject,
  PaymentObject,
  PullPaymentObject,
  StoreObject,
} from './greenfield-objects.js';
export type { InvoiceEventType } from './invoices.js';
export type { WebhookPayload } from './webhooks.js';
export { signBody, WEBHOOK_HEADERS } from './webhooks.js';
export { BTC_RATE } from './amounts.js';
