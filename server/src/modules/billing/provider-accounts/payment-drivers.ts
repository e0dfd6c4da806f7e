import type { PaymentMethod, ProviderMethod } from '../../../../../shared/billing-schemas.js';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import { PaymentProviderError, type PaymentDriver } from '../../../payments/payment-driver.js';
import type { AccountDrivers } from './account-drivers.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { BtcpayConfig } from './btcpay-settings.service.js';
import { METHOD_OF_PROVIDER } from './payment-providers.repo.js';

/** Builds the BTCPay driver for a store (server/src/payments/btcpay). */
export type BtcpayDriverFactory = (store: Pick<BtcpayConfig, 'serverUrl' | 'storeId' | 'apiKey' | 'webhookSecret'>) => PaymentDriver;

/** The payment method a provider's name stands for; Stripe, and rows from before providers, are card. */
export const methodOfProvider = (providerName: string | null | undefined): ProviderMethod =>
  (providerName ? METHOD_OF_PROVIDER[providerName] : undefined) ?? 'card';

/**
 * How one method takes new payments: whether a customer can pay with it now (in the store's currency), at
 * which priority it is offered, and the driver of the keys in force for a checkout (503 with a clear message
 * while it is not set up, or cannot take the store's currency).
 */
export interface CheckoutSource {
  publicState(currency: string): Promise<{ ready: boolean; priority: number }>;
  forCheckout(currency: string): Promise<{ driver: PaymentDriver; providerId: string | null }>;
}

/**
 * Every payment provider's driver, chosen by what the customer picked (a new checkout: the keys in force)
 * or by the provider account that took the payment (everything after: reads, cancels, refunds; see
 * account-drivers.ts).
 */
export function createPaymentDrivers(deps: {
  checkouts: Record<ProviderMethod, CheckoutSource>;
  accounts: AccountDrivers;
  billing: Pick<BillingRepo, 'findSubscription'>;
}) {
  async function forSubscription(subscription: Pick<SubscriptionRecord, 'providerName' | 'providerAccountId'>): Promise<PaymentDriver | null> {
    return deps.accounts.forAccount(methodOfProvider(subscription.providerName), subscription.providerAccountId);
  }

  return {
    accounts: deps.accounts,

    /**
     * For a new checkout: 503 unless the method is enabled with every setting (the spec's messages); the
     * account the keys belong to, which the payment records.
     */
    async forCheckout(method: ProviderMethod, currency: string): Promise<{ driver: PaymentDriver; providerId: string | null; providerAccountId: string }> {
      const { driver, providerId } = await deps.checkouts[method].forCheckout(currency);
      try {
        return { driver, providerId, providerAccountId: await deps.accounts.inForceRecorded(method, driver) };
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) throw err;
        throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
      }
    },

    /** The driver of the account that bills a subscription; null when its keys are gone. */
    forSubscription,

    /** The driver of the account that took a transaction's payment (its own, else its subscription's); null when its keys are gone. */
    async forTransaction(transaction: Pick<TransactionRecord, 'subscriptionId' | 'providerAccountId'>): Promise<PaymentDriver | null> {
      const subscription = await deps.billing.findSubscription(transaction.subscriptionId);
      return deps.accounts.forAccount(methodOfProvider(subscription?.providerName), transaction.providerAccountId ?? subscription?.providerAccountId ?? null);
    },

    /** The methods a customer can pay with now in `currency`, the highest priority first (card payments have 100). */
    async availableMethods(currency: string): Promise<PaymentMethod[]> {
      const methods = Object.keys(deps.checkouts) as ProviderMethod[];
      const states = await Promise.all(methods.map(async (method) => ({ method, ...(await deps.checkouts[method].publicState(currency)) })));
      return states
        .filter((state) => state.ready)
        .sort((a, b) => b.priority - a.priority)
        .map((state) => state.method);
    },
  };
}

export type PaymentDrivers = ReturnType<typeof createPaymentDrivers>;
