import type { PaymentMethod } from '../../../../../shared/billing-schemas.js';
import { BILLING_MESSAGES, CARD_PRIORITY } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import { PaymentProviderError, type PaymentDriver } from '../../../payments/payment-driver.js';
import type { AccountDrivers } from './account-drivers.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { StripeDriverSource } from './stripe-driver-source.js';
import { cryptoNotConfigured, type BtcpayConfig, type BtcpaySettingsService } from './btcpay-settings.service.js';
import { BTCPAY_PROVIDER_NAME } from './payment-providers.repo.js';

/** Builds the BTCPay driver for a store (server/src/payments/btcpay). */
export type BtcpayDriverFactory = (store: Pick<BtcpayConfig, 'serverUrl' | 'storeId' | 'apiKey' | 'webhookSecret'>) => PaymentDriver;

/** The payment method a provider's name stands for ('btcpay' is crypto; Stripe, and rows from before providers, are card). */
export const methodOfProvider = (providerName: string | null | undefined): PaymentMethod => (providerName === BTCPAY_PROVIDER_NAME ? 'crypto' : 'card');

/**
 * Every payment provider's driver, chosen by what the customer picked (a new checkout: the keys in force)
 * or by the provider account that took the payment (everything after: reads, cancels, refunds; see
 * account-drivers.ts). Card payments are Stripe's (stripe-driver-source.ts); crypto payments go to the operator's
 * BTCPay Server.
 */
export function createPaymentDrivers(deps: { cards: StripeDriverSource; crypto: BtcpaySettingsService; cryptoDrivers: BtcpayDriverFactory; accounts: AccountDrivers; billing: Pick<BillingRepo, 'findSubscription'> }) {
  async function forCheckoutDriver(method: PaymentMethod): Promise<{ driver: PaymentDriver; providerId: string | null }> {
    if (method === 'card') return deps.cards.forCheckout();
    const store = await deps.crypto.resolve();
    if (!store?.enabled || !store.webhookSecret) throw cryptoNotConfigured();
    return { driver: deps.cryptoDrivers(store), providerId: store.providerId };
  }

  async function forSubscription(subscription: Pick<SubscriptionRecord, 'providerName' | 'providerAccountId'>): Promise<PaymentDriver | null> {
    return deps.accounts.forAccount(methodOfProvider(subscription.providerName), subscription.providerAccountId);
  }

  return {
    cards: deps.cards,
    accounts: deps.accounts,

    /**
     * For a new checkout: 503 unless the method is enabled with every setting (the spec's messages); the
     * account the keys belong to, which the payment records.
     */
    async forCheckout(method: PaymentMethod): Promise<{ driver: PaymentDriver; providerId: string | null; providerAccountId: string }> {
      const { driver, providerId } = await forCheckoutDriver(method);
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

    /** The methods a customer can pay with now, the highest priority first (card payments have 100). */
    async availableMethods(cardReady: boolean): Promise<PaymentMethod[]> {
      const crypto = await deps.crypto.getPublicState();
      const offered: Array<{ method: PaymentMethod; priority: number }> = [];
      if (cardReady) offered.push({ method: 'card', priority: CARD_PRIORITY });
      if (crypto.ready) offered.push({ method: 'crypto', priority: crypto.priority });
      return offered.sort((a, b) => b.priority - a.priority).map((entry) => entry.method);
    },
  };
}

export type PaymentDrivers = ReturnType<typeof createPaymentDrivers>;
