import type { CardPaymentSettings, UpdateCardPaymentSettings } from '../../../../shared/billing.js';

/** The two write-only keys. */
export type SecretKeyName = 'secretKey' | 'webhookSecret';

/** A write-only key as the form holds it: empty keeps the saved one, `clear` removes it. */
export interface SecretInput {
  value: string;
  clear: boolean;
}

/** What the 'Card payments (Stripe)' form holds. The secrets start empty and are never filled in. */
export interface CardPaymentFormValues {
  enabled: boolean;
  publishableKey: string;
  secretKey: SecretInput;
  webhookSecret: SecretInput;
}

/** The environment variable that overrides each key (it then shows read-only). */
export const KEY_ENV_VARS = {
  publishableKey: 'STRIPE_PUBLISHABLE_KEY',
  secretKey: 'STRIPE_SECRET_KEY',
  webhookSecret: 'STRIPE_WEBHOOK_SECRET',
} as const;

const EMPTY_SECRET: SecretInput = { value: '', clear: false };

export function valuesFromCardSettings(settings: CardPaymentSettings): CardPaymentFormValues {
  return {
    enabled: settings.enabled,
    publishableKey: settings.publishableKey ?? '',
    secretKey: EMPTY_SECRET,
    webhookSecret: EMPTY_SECRET,
  };
}

/** A secret's change: null clears it, a typed value replaces it, nothing keeps it (omitted). */
export function secretChange(input: SecretInput): string | null | undefined {
  if (input.clear) return null;
  const value = input.value.trim();
  return value === '' ? undefined : value;
}

/**
 * The body of `PUT /api/admin/payments/card`. Keys set by an environment variable are left out
 * (the server would ignore them anyway); an emptied publishable key is cleared.
 */
export function toCardSettingsUpdate(values: CardPaymentFormValues, sources: CardPaymentSettings['sources']): UpdateCardPaymentSettings {
  const update: UpdateCardPaymentSettings = { enabled: values.enabled };
  if (sources.publishableKey !== 'env') update.publishableKey = values.publishableKey.trim() || null;
  for (const name of ['secretKey', 'webhookSecret'] as const) {
    const change = sources[name] === 'env' ? undefined : secretChange(values[name]);
    if (change !== undefined) update[name] = change;
  }
  return update;
}
