import Stripe from 'stripe';
import type { Locale } from '../../../../shared/locales.js';
import { PaymentProviderError } from '../payment-driver.js';

/**
 * Stripe's language (Checkout, the billing portal) for ours, always said: English is English (not the browser's
 * language, which may be another), Chinese is Stripe's `zh`. Persian is not among Stripe's languages (Checkout's
 * `locale` list, stripe-node's `Checkout.SessionCreateParams.Locale`): `auto`, Stripe's own choice from the browser,
 * which for a Persian browser is English.
 */
const STRIPE_LOCALES: Record<Locale, 'en' | 'ru' | 'zh' | 'auto'> = { en: 'en', ru: 'ru', 'zh-CN': 'zh', fa: 'auto' };
export const stripeLocale = (locale: Locale) => STRIPE_LOCALES[locale];

/**
 * The languages a Stripe customer's own e-mails (receipts, invoices) are written in (`preferred_locales`): ours
 * where Stripe has it; none for Persian (Stripe then writes in the account's default language).
 */
export const stripePreferredLocales = (locale: Locale | null | undefined): string[] => {
  const language = locale ? STRIPE_LOCALES[locale] : undefined;
  return language && language !== 'auto' ? [language] : [];
};

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
