/**
 * What the billing module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type BillingNotices } from './billing-notices.js';
export { type NoticeComposer } from './send-billing-email.js';
export { type BillingRepo, type CheckoutKind, type TransactionRecord } from './billing.repo.js';
export {
  type CheckoutService,
  type StarsCheckout,
  type StarsPayment,
  type StarsPaymentOutcome,
  type StarsSubscriptionPayment,
} from './checkout/checkout.service.js';
export { newOrderIds, type OrderRows } from './checkout/order-rows.js';
export { CHECKOUT_SESSION_TTL_SECONDS } from './checkout/checkout-timing.js';
export { type TopUpCheckout } from './checkout/top-up-checkout.js';
export { type TransactionEvent } from '../orders/index.js';
export { type PaymentDrivers } from './provider-accounts/payment-drivers.js';
export { type providerAccountsModule } from './provider-accounts/provider-accounts.module.js';
export { type StripePublicState } from './provider-accounts/stripe-settings.service.js';
export { type SubscriptionsAdminRepo } from './recurring/subscriptions-admin.repo.js';
export { type RefundsService } from './refunds/refunds.service.js';
export { type RevenueReport } from './refunds/revenue-report.js';
export { type UnreadableWebhooksRepo } from './webhooks/unreadable-webhooks.repo.js';
export { type WithBilling } from './webhooks/webhooks.module.js';
export { type addOnsModule } from './add-ons/add-ons.module.js';
