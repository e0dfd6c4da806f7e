import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { YookassaCredentials } from '../../../payments/yookassa/yookassa-driver.js';
import { YOOKASSA_PROVIDER_NAME } from './payment-providers.repo.js';
import type { ProviderSource } from './provider-sources.js';
import type { YookassaSettingsService } from './yookassa-settings.service.js';

/** Builds the YooKassa driver for a shop (server/src/payments/yookassa). */
export type YookassaDriverFactory = (shop: YookassaCredentials) => PaymentDriver;

/** Roubles by card and SBP: the operator's YooKassa shop. Its notifications are unsigned: there is no webhook secret. */
export function createYookassaSource(deps: { yookassa: Pick<YookassaSettingsService, 'resolve'>; drivers: YookassaDriverFactory }): ProviderSource {
  return {
    method: 'yookassa',
    provider: YOOKASSA_PROVIDER_NAME,
    async inForce() {
      const shop = await deps.yookassa.resolve();
      if (!shop) return null;
      return { driver: deps.drivers(shop), secret: shop.secretKey, webhookSecret: null, settings: { shopId: shop.shopId, receipts: shop.receipts } };
    },
    fromSaved: ({ secret, settings }) =>
      settings.shopId ? deps.drivers({ shopId: settings.shopId, secretKey: secret, receipts: settings.receipts ?? null }) : null,
  };
}
