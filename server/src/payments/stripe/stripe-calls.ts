import Stripe from 'stripe';
import type { Locale } from '../../../../shared/locales.js';
import { PaymentProviderError } from '../payment-driver.js';

/**
 * Stripe's language (Checkout, the billing portal) for ours; none (Stripe follows the browser) for English,
 * as before, and for Persian, which Stripe's pages do not have.
 */
const STRIPE_LOCALES: Partial<Record<Locale, 'ru' | 'zh'>> = { ru: 'ru', 'zh-CN': 'zh' };
export const stripeLocale = (locale: Locale) => STRIPE_LOCALES[locale];

/** Stripe's errors as ours: a 4xx means the request itself was refused. */
export async function calling<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) {
      const status = err.statusCode ?? 0;
      throw new PaymentProviderError(`${what}: ${err.message}`, err.code ?? null, status >= 400 && status < 500 && status !== 429);
    }
    throw new PaymentProviderError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Whether Stripe said the object does not exist. */
export const isMissing = (err: unknown) => err instanceof PaymentProviderError && err.code === 'resource_missing';
