import type { ProviderMethod } from '../../../../../shared/billing-schemas.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { ProviderAccountSettings } from './provider-accounts.repo.js';

/** The keys of a provider in force right now, in clear, and the driver they make. */
export interface ProviderKeys {
  driver: PaymentDriver;
  /** The key that reaches the account (Stripe's secret key, BTCPay's API key, YooKassa's secret key, Crypto Pay's token). */
  secret: string;
  /** What webhooks are verified with, when the provider signs them with a secret of its own (Stripe, BTCPay). */
  webhookSecret: string | null;
  /** What else the driver needs, in clear (BTCPay's server and store, YooKassa's shop id and receipts, Crypto Pay's network). */
  settings?: ProviderAccountSettings;
}

/**
 * One payment provider as the billing module reaches it (the same shape for each, as panels have their
 * drivers): which customer-facing method it is, the keys in force, and a driver from the keys an account
 * that took payments keeps (provider_accounts). Adding a provider is one of these and its driver.
 */
export interface ProviderSource {
  method: ProviderMethod;
  /** payment_providers.name and provider_accounts.provider ('stripe', 'btcpay', 'yookassa', 'cryptopay'). */
  provider: string;
  /** The keys in force (the admin's settings, or the environment), or null while there are none. */
  inForce(): Promise<ProviderKeys | null>;
  /** A driver for an account from the keys it keeps; null when they are not enough to reach it. */
  fromSaved(saved: { secret: string; webhookSecret: string | null; settings: ProviderAccountSettings }): PaymentDriver | null;
  /** Customer keys an older scheme stored under (Stripe: a fingerprint of the secret key); moved to the account's key once it is known. */
  legacyCustomerKeys?(secret: string): string[];
}
