import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { StripeDriverFactory } from '../../../payments/stripe/stripe-driver.js';
import type { StripeSettingsService } from './stripe-settings.service.js';

/**
 * The card provider's driver, bound to the keys in force right now (the admin may change them at any
 * time, and environment variables override them).
 */
export function createStripeDriverSource(deps: { card: StripeSettingsService; drivers: StripeDriverFactory }) {
  return {
    /** For a new checkout: 503 unless card payments are enabled with every key. */
    async forCheckout(): Promise<{ driver: PaymentDriver; providerId: string | null }> {
      const keys = await deps.card.resolveKeys();
      if (!keys.enabled || !keys.publishableKey || !keys.webhookSecret) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
      if (!keys.secretKey) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.stripeNotInitialized);
      return { driver: deps.drivers({ secretKey: keys.secretKey, webhookSecret: keys.webhookSecret }), providerId: keys.providerId };
    },

    /**
     * For what follows a payment (reading a checkout, webhooks, refunds): works while card payments
     * are switched off for new customers, as long as the keys are there. Null without a secret key.
     */
    async current(): Promise<PaymentDriver | null> {
      const keys = await deps.card.resolveKeys();
      return keys.secretKey ? deps.drivers({ secretKey: keys.secretKey, webhookSecret: keys.webhookSecret }) : null;
    },
  };
}

export type StripeDriverSource = ReturnType<typeof createStripeDriverSource>;
