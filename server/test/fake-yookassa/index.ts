/**
 * A local stand-in for the parts of YooKassa API v3 this project uses, for tests and local demos: point the
 * YooKassa driver's API URL at `${fake.url}/v3` (YOOKASSA_API_URL).
 */
export { startFakeYookassa } from './fake-yookassa.js';
export type { DeliverOption, FakeYookassa, FakeYookassaDelivery, FakeYookassaNotice, FakeYookassaOptions, FakeYookassaRequest } from './handle-types.js';
export type { ChargeOutcome } from './payment-methods.js';
export { TEST_CARD } from './payment-methods.js';
export type { ShopMethod } from './payment-request.js';
export { WRONG_CREDENTIALS } from './auth.js';
export { NOTIFICATION_HEADERS } from './notifications.js';
export type {
  CancellationDetails,
  NotificationEvent,
  PaymentStatus,
  RefundStatus,
  YookassaAmount,
  YookassaCard,
  YookassaConfirmation,
  YookassaError,
  YookassaList,
  YookassaMe,
  YookassaNotification,
  YookassaPayment,
  YookassaPaymentMethod,
  YookassaRefund,
} from './yookassa-objects.js';
