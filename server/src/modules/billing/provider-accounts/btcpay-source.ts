import type { BtcpaySettingsService } from './btcpay-settings.service.js';
import type { BtcpayDriverFactory } from './payment-drivers.js';
import { BTCPAY_PROVIDER_NAME } from './payment-providers.repo.js';
import type { ProviderSource } from './provider-sources.js';

/** Crypto payments: the operator's BTCPay Server store. */
export function createBtcpaySource(deps: { crypto: Pick<BtcpaySettingsService, 'resolve'>; drivers: BtcpayDriverFactory }): ProviderSource {
  return {
    method: 'crypto',
    provider: BTCPAY_PROVIDER_NAME,
    async inForce() {
      const store = await deps.crypto.resolve();
      if (!store) return null;
      return {
        driver: deps.drivers(store),
        secret: store.apiKey,
        webhookSecret: store.webhookSecret,
        settings: { serverUrl: store.serverUrl, storeId: store.storeId },
      };
    },
    fromSaved({ secret, webhookSecret, settings }) {
      const { serverUrl, storeId } = settings;
      return serverUrl && storeId ? deps.drivers({ serverUrl, storeId, apiKey: secret, webhookSecret }) : null;
    },
  };
}
