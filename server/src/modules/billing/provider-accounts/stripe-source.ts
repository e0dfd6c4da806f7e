import { legacyCustomerKeyOf, type StripeDriverFactory } from '../../../payments/stripe/stripe-driver.js';
import { STRIPE_PROVIDER_NAME } from './payment-providers.repo.js';
import type { ProviderSource } from './provider-sources.js';
import type { StripeSettingsService } from './stripe-settings.service.js';

/** Card payments: Stripe, with the keys of the admin's settings or the environment. */
export function createStripeSource(deps: { card: Pick<StripeSettingsService, 'resolveKeys'>; drivers: StripeDriverFactory }): ProviderSource {
  return {
    method: 'card',
    provider: STRIPE_PROVIDER_NAME,
    async inForce() {
      const keys = await deps.card.resolveKeys();
      if (!keys.secretKey) return null;
      return {
        driver: deps.drivers({ secretKey: keys.secretKey, webhookSecret: keys.webhookSecret }),
        secret: keys.secretKey,
        webhookSecret: keys.webhookSecret,
      };
    },
    fromSaved: ({ secret, webhookSecret }) => deps.drivers({ secretKey: secret, webhookSecret }),
    legacyCustomerKeys: (secret) => [legacyCustomerKeyOf(secret)],
  };
}
