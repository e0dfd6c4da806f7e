import type {
  BillingPortalStarted,
  CheckoutRequest,
  CheckoutStarted,
  CheckoutStatus,
  SavedPaymentMethod,
  Subscription,
  Transaction,
} from '../../../shared/billing.js';
import type { CheckGiftCodeBody, GiftChecked, GiftRedeemed, RedeemGiftCodeBody } from '../../../shared/gift-codes.js';
import type { CheckoutQuote, CheckoutQuoteBody } from '../../../shared/promo-codes.js';
import type { MyReferrals } from '../../../shared/referrals.js';
import type { AccountAddOns, BuyAddOnBody } from '../../../shared/add-ons.js';
import type { PlanChangeBody, PlanChangeQuote, PlanChangeStarted } from '../../../shared/plan-changes.js';
import type { TopUpBody, TopUpStarted, Wallet } from '../../../shared/wallet.js';
import { apiClient } from './index';

const checkoutPath = (sessionId: string) => `/api/checkout/${encodeURIComponent(sessionId)}`;
const subscriptionPath = (id: string) => `/api/subscriptions/${encodeURIComponent(id)}`;

/** The customer's card payments: checkout, its status on return, subscriptions, transactions and the billing portal. */
export const billingApi = {
  /** Buys `planId` or renews `accountId`; send the browser to the answer's `url`. */
  startCheckout: (request: CheckoutRequest) => apiClient.request<CheckoutStarted>('POST', '/api/checkout', { body: request }),
  /** What a promo code does to a plan's price (400 `promo_invalid` with `reason` when it cannot be used). */
  quote: (body: CheckoutQuoteBody) => apiClient.request<CheckoutQuote>('POST', '/api/checkout/quote', { body }),
  /** What switching the account to `planId` would do now: the credit for its unused paid time, and what is paid or credited. */
  quotePlanChange: (accountId: string, planId: string) =>
    apiClient.request<PlanChangeQuote>('POST', `/api/accounts/${encodeURIComponent(accountId)}/change-plan/quote`, { body: { planId } }),
  /** Switches the account's plan: a payment to send the browser to (`url`), or a downgrade set for the paid end. */
  changePlan: (accountId: string, body: PlanChangeBody) =>
    apiClient.request<PlanChangeStarted>('POST', `/api/accounts/${encodeURIComponent(accountId)}/change-plan`, { body }),
  /** Calls off a downgrade set for the paid end. */
  cancelPlanChange: (accountId: string) => apiClient.request<void>('DELETE', `/api/accounts/${encodeURIComponent(accountId)}/change-plan`),
  /** What the account can buy on top of its plan, and the add-ons it has. */
  accountAddOns: (accountId: string) => apiClient.request<AccountAddOns>('GET', `/api/accounts/${encodeURIComponent(accountId)}/add-ons`),
  /** Buys an add-on for the account: send the browser to the answer's `url`. */
  buyAddOn: (accountId: string, body: BuyAddOnBody) =>
    apiClient.request<CheckoutStarted>('POST', `/api/accounts/${encodeURIComponent(accountId)}/add-ons`, { body }),
  /** What an unused gift code gives: its plan, and the caller's accounts its days can go to. */
  checkGift: (body: CheckGiftCodeBody) => apiClient.request<GiftChecked>('POST', '/api/gift-codes/check', { body }),
  /** Redeems a gift code for a new account, or its days on `accountId`; the answer is followed like a checkout. */
  redeemGift: (body: RedeemGiftCodeBody) => apiClient.request<GiftRedeemed>('POST', '/api/gift-codes/redeem', { body }),
  getCheckoutStatus: (sessionId: string, signal?: AbortSignal) => apiClient.request<CheckoutStatus>('GET', checkoutPath(sessionId), { signal }),
  /** Closes a checkout the customer cancelled (`order` from the cancel link); `succeeded` if it was paid after all. */
  cancelCheckout: (order: string) => apiClient.request<{ status: CheckoutStatus['status'] }>('POST', `${checkoutPath(order)}/cancel`),
  listSubscriptions: (signal?: AbortSignal) => apiClient.request<Subscription[]>('GET', '/api/subscriptions', { signal }),
  /** Turns auto-renew off: the subscription runs to the end of its paid period (409 `not_recurring` for a one-off). */
  cancelSubscription: (id: string) => apiClient.request<Subscription>('POST', `${subscriptionPath(id)}/cancel`),
  /** Turns auto-renew back on before the period ends (409 `not_renewing` once it has ended). */
  resumeSubscription: (id: string) => apiClient.request<Subscription>('POST', `${subscriptionPath(id)}/resume`),
  listTransactions: (signal?: AbortSignal) => apiClient.request<Transaction[]>('GET', '/api/transactions', { signal }),
  /** The provider's billing portal for the caller; send the browser to `url` (409 `no_billing_account` before any recurring payment). */
  startBillingPortal: () => apiClient.request<BillingPortalStarted>('POST', '/api/billing/portal'),
  /** The cards the store keeps to renew the caller's plans with. */
  paymentMethods: (signal?: AbortSignal) => apiClient.request<SavedPaymentMethod[]>('GET', '/api/payment-methods', { signal }),
  /** Removes a saved card: it is never charged again, and the plans it renewed stop renewing automatically. */
  removePaymentMethod: (id: string) => apiClient.request<{ stoppedRenewing: number }>('DELETE', `/api/payment-methods/${encodeURIComponent(id)}`),
  /** The caller's referral link, who it brought and the credit it earned. */
  myReferrals: (signal?: AbortSignal) => apiClient.request<MyReferrals>('GET', '/api/referrals/me', { signal }),
  /** The caller's balance, its latest movements, and how it can be topped up. */
  wallet: (signal?: AbortSignal) => apiClient.request<Wallet>('GET', '/api/wallet', { signal }),
  /** Tops the balance up by `amount` (minor units) through `method`; send the browser to the answer's `url`. */
  topUp: (body: TopUpBody) => apiClient.request<TopUpStarted>('POST', '/api/wallet/top-up', { body }),
};
