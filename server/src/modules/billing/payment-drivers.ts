import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import { CARD_PRIORITY } from '../../../../shared/billing.js';
import type { PaymentDriver } from '../../payments/payment-driver.js';
import type { BillingRepo, TransactionRecord } from './billing.repo.js';
import type { CardDriverSource } from './card-driver.js';
import { cryptoNotConfigured, type CryptoConfig, type CryptoSettingsService } from './crypto-settings.service.js';
import { CRYPTO_PROVIDER_NAME } from './payment-providers.repo.js';

/** Builds the BTCPay driver for the store in force (server/src/payments/btcpay). */
export type CryptoDriverFactory = (store: Pick<CryptoConfig, 'serverUrl' | 'storeId' | 'apiKey' | 'webhookSecret'>) => PaymentDriver;

/** The payment method a provider's name stands for ('btcpay' is crypto; Stripe, and rows from before providers, are card). */
export const methodOfProvider = (providerName: string | null | undefined): PaymentMethod => (providerName === CRYPTO_PROVIDER_NAME ? 'crypto' : 'card');

/**
 * Every payment provider's driver, chosen by what the customer picked (a new checkout) or by the
 * provider that took the payment (everything after: reads, cancels, refunds). Card payments are
 * Stripe's (card-driver.ts); crypto payments go to the operator's BTCPay Server.
 */
export function createPaymentDrivers(deps: { cards: CardDriverSource; crypto: CryptoSettingsService; cryptoDrivers: CryptoDriverFactory; billing: Pick<BillingRepo, 'findSubscription'> }) {
  async function cryptoDriver(): Promise<PaymentDriver | null> {
    const store = await deps.crypto.resolve();
    return store ? deps.cryptoDrivers(store) : null;
  }

  async function forMethod(method: PaymentMethod): Promise<PaymentDriver | null> {
    return method === 'crypto' ? cryptoDriver() : deps.cards.current();
  }

  return {
    cards: deps.cards,

    /** For a new checkout: 503 unless the method is enabled with every setting (the spec's messages). */
    async forCheckout(method: PaymentMethod): Promise<{ driver: PaymentDriver; providerId: string | null }> {
      if (method === 'card') return deps.cards.forCheckout();
      const store = await deps.crypto.resolve();
      if (!store?.enabled || !store.webhookSecret) throw cryptoNotConfigured();
      return { driver: deps.cryptoDrivers(store), providerId: store.providerId };
    },

    forMethod,
    crypto: cryptoDriver,

    /** The driver of the provider that took a transaction's payment; null when its keys are gone. */
    async forTransaction(transaction: Pick<TransactionRecord, 'subscriptionId'>): Promise<PaymentDriver | null> {
      const subscription = await deps.billing.findSubscription(transaction.subscriptionId);
      return forMethod(methodOfProvider(subscription?.providerName));
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
