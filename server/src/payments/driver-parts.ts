/** Pieces several payment drivers share. */
import { PaymentProviderError, PROVIDER_CANNOT, type PaymentDriver } from './payment-driver.js';

/** One request header, whatever its case; the first when repeated. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

type ProviderSubscriptionMethods = Pick<
  PaymentDriver,
  | 'createCustomer'
  | 'setCustomerLanguage'
  | 'creditCustomer'
  | 'ensureRecurringPrice'
  | 'readSubscription'
  | 'setCancelAtPeriodEnd'
  | 'deferNextCharge'
  | 'cancelNow'
  | 'openBillingPortal'
>;

/** A driver method the provider has no equivalent of: it refuses with `why` (a request that will never work, so nobody retries it). */
export const cannot = (why: string) => (): Promise<never> => Promise.reject(new PaymentProviderError(why, PROVIDER_CANNOT, true));

/**
 * The provider-subscription methods (Stripe Billing's: customers, prices, subscriptions, the portal) for a provider
 * that has none: each refuses with `why`.
 */
export function withoutProviderSubscriptions(why: string): ProviderSubscriptionMethods {
  const refuse = cannot(why);
  return {
    createCustomer: refuse,
    setCustomerLanguage: refuse,
    creditCustomer: refuse,
    ensureRecurringPrice: refuse,
    readSubscription: refuse,
    setCancelAtPeriodEnd: refuse,
    deferNextCharge: refuse,
    cancelNow: refuse,
    openBillingPortal: refuse,
  };
}
