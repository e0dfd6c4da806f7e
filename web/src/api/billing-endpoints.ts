import type { CheckoutRequest, CheckoutStarted, CheckoutStatus, Subscription, Transaction } from '../../../shared/billing.js';
import { apiClient } from './index';

const checkoutPath = (sessionId: string) => `/api/checkout/${encodeURIComponent(sessionId)}`;
const subscriptionPath = (id: string) => `/api/subscriptions/${encodeURIComponent(id)}`;

/** The customer's card payments: checkout, its status on return, subscriptions and transactions. */
export const billingApi = {
  /** Buys `planId` or renews `accountId`; send the browser to the answer's `url`. */
  startCheckout: (request: CheckoutRequest) => apiClient.request<CheckoutStarted>('POST', '/api/checkout', { body: request }),
  getCheckoutStatus: (sessionId: string, signal?: AbortSignal) =>
    apiClient.request<CheckoutStatus>('GET', checkoutPath(sessionId), { signal }),
  listSubscriptions: (signal?: AbortSignal) => apiClient.request<Subscription[]>('GET', '/api/subscriptions', { signal }),
  cancelSubscription: (id: string) => apiClient.request<Subscription>('POST', `${subscriptionPath(id)}/cancel`),
  listTransactions: (signal?: AbortSignal) => apiClient.request<Transaction[]>('GET', '/api/transactions', { signal }),
};
