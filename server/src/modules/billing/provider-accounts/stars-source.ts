import { STARS_CURRENCY } from '../../../../../shared/billing-schemas.js';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { CheckoutSource } from './payment-drivers.js';
import { STARS_PROVIDER_NAME, type PaymentProvidersRepo } from './payment-providers.repo.js';
import type { ProviderSource } from './provider-sources.js';

/** Builds the Telegram Stars driver for a bot's token (server/src/payments/telegram-stars). */
export type StarsDriverFactory = (token: string) => PaymentDriver;

interface StarsSourceDeps {
  /** The token of the bot the store runs now (null while it is off): its Stars are the provider account. */
  botToken: () => Promise<string | null>;
  drivers: StarsDriverFactory;
  providers: Pick<PaymentProvidersRepo, 'saveProvider'>;
  clock: Clock;
}

/**
 * Telegram Stars: the store's bot is the provider account (a payment is refunded by the bot that took it, so a bot
 * replaced keeps its token in provider_accounts). Stars are sold in the bot alone, at each plan's Stars price: the
 * site never offers them, and a checkout in any other currency is refused.
 */
export function createStarsSources(deps: StarsSourceDeps): { source: ProviderSource; checkout: CheckoutSource } {
  const source: ProviderSource = {
    method: 'stars',
    provider: STARS_PROVIDER_NAME,
    async inForce() {
      const token = await deps.botToken();
      return token ? { driver: deps.drivers(token), secret: token, webhookSecret: null } : null;
    },
    fromSaved: ({ secret }) => deps.drivers(secret),
  };
  let providerId: string | null = null;
  const checkout: CheckoutSource = {
    publicState: async () => ({ ready: false, priority: 0 }),
    async forCheckout(currency) {
      if (currency !== STARS_CURRENCY) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.starsInBotOnly);
      const token = await deps.botToken();
      if (!token) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.starsUnavailable);
      // The payments name a provider row as every other provider's do (made once, never switched off: the bot is).
      providerId ??= (await deps.providers.saveProvider({ type: 'stars', name: STARS_PROVIDER_NAME, priority: 0 }, { enabled: true }, deps.clock())).id;
      return { driver: deps.drivers(token), providerId };
    },
  };
  return { source, checkout };
}
