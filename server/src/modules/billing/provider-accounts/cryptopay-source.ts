import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { CryptopayCredentials } from '../../../payments/cryptopay/cryptopay-driver.js';
import type { CryptopaySettingsService } from './cryptopay-settings.service.js';
import { CRYPTOPAY_PROVIDER_NAME } from './payment-providers.repo.js';
import type { ProviderSource } from './provider-sources.js';

/** Builds the Crypto Pay driver for an app (server/src/payments/cryptopay). */
export type CryptopayDriverFactory = (app: CryptopayCredentials) => PaymentDriver;

/** USDT, TON and other coins: the operator's Crypto Pay app. Its token also keys the webhook's signature. */
export function createCryptopaySource(deps: { cryptopay: Pick<CryptopaySettingsService, 'resolve'>; drivers: CryptopayDriverFactory }): ProviderSource {
  return {
    method: 'cryptopay',
    provider: CRYPTOPAY_PROVIDER_NAME,
    async inForce() {
      const app = await deps.cryptopay.resolve();
      if (!app) return null;
      return { driver: deps.drivers(app), secret: app.token, webhookSecret: null, settings: { network: app.network } };
    },
    fromSaved: ({ secret, settings }) => deps.drivers({ token: secret, network: settings.network ?? 'mainnet', assets: [] }),
  };
}
