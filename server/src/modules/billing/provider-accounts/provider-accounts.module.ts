import { CARD_PRIORITY } from '../../../../../shared/billing.js';
import type { EventBus } from '../../../lib/event-bus.js';
import type { DomainEvents } from '../../../domain-events.js';
import { createBtcpayDriver, testBtcpayConnection } from '../../../payments/btcpay/btcpay-driver.js';
import { createCryptopayDriver, testCryptopayConnection } from '../../../payments/cryptopay/cryptopay-driver.js';
import { createStripeDrivers } from '../../../payments/stripe/stripe-driver.js';
import { createStarsDriver } from '../../../payments/telegram-stars/stars-driver.js';
import { createYookassaDriver, testYookassaConnection } from '../../../payments/yookassa/yookassa-driver.js';
import type { Foundation } from '../../../records.module.js';
import { defineModule, route } from '../../module.js';
import { createPanelUrlCheck } from '../../servers/index.js';
import { storeCurrencyOf } from '../../settings/index.js';
import { createAccountDrivers } from './account-drivers.js';
import { createBtcpaySettingsService } from './btcpay-settings.service.js';
import { adminBtcpaySettingsRoutes } from './btcpay-settings.routes.js';
import { createBtcpaySource } from './btcpay-source.js';
import { createCryptopaySettingsService } from './cryptopay-settings.service.js';
import { createCryptopaySource } from './cryptopay-source.js';
import { createPaymentCustomers } from './payment-customers.js';
import { createPaymentDrivers } from './payment-drivers.js';
import { adminProviderSettingsRoutes } from './provider-settings.routes.js';
import { createStarsSources } from './stars-source.js';
import { createStripeDriverSource } from './stripe-driver-source.js';
import { createStripeSettingsService } from './stripe-settings.service.js';
import { adminStripeSettingsRoutes } from './stripe-settings.routes.js';
import { createStripeSource } from './stripe-source.js';
import { createYookassaSettingsService } from './yookassa-settings.service.js';
import { createYookassaSource } from './yookassa-source.js';

/** Payment settings whose saves change the site (the public settings show which methods are on). */
function telling<T extends { updateSettings(...args: never[]): Promise<unknown> }>(service: T, events: EventBus<DomainEvents>): T {
  return {
    ...service,
    async updateSettings(...args: Parameters<T['updateSettings']>) {
      const saved = await service.updateSettings(...args);
      events.tell('site.changed', {});
      return saved;
    },
  };
}

/**
 * The payment providers' settings (Stripe, BTCPay, YooKassa, Crypto Pay: keys write-only, encrypted at rest),
 * the provider account each set of keys belongs to, and the drivers a payment is made with.
 */
export const providerAccountsModule = defineModule({
  name: 'provider-accounts',
  build(deps: Foundation) {
    const { config, db, keys, clock, log, events, paymentProviders: providers } = deps;
    const publicUrl = config.publicUrl;
    const keysChanging = (method: 'card' | 'crypto' | 'yookassa' | 'cryptopay') => () => events.emit('payment-keys.changing', { method });
    // Read when a payment is started or the settings are shown.
    const storeCurrency = async () => storeCurrencyOf(await deps.settingsRepo.getAppConfig());
    const stripeDrivers = deps.stripeDrivers ?? createStripeDrivers(config.stripeApiUrl, { testClocks: config.stripeTestClocks });
    const cryptoDrivers = deps.cryptoDrivers ?? ((store) => createBtcpayDriver(store));
    const yookassaDrivers = deps.yookassaDrivers ?? ((shop) => createYookassaDriver(shop, { apiUrl: config.yookassaApiUrl }));
    const cryptopayDrivers = deps.cryptopayDrivers ?? ((app) => createCryptopayDriver(app, { apiUrl: config.cryptopayApiUrl }));
    const card = telling(createStripeSettingsService({ providers, keys, env: config.stripeKeys, publicUrl, keysChanging: keysChanging('card') }), events);
    const crypto = telling(
      createBtcpaySettingsService({
        providers,
        keys,
        publicUrl,
        testConnection: testBtcpayConnection,
        checkServerUrl: createPanelUrlCheck({ allowLinkLocal: config.allowLinkLocalPanels }),
        keysChanging: keysChanging('crypto'),
      }),
      events,
    );
    const yookassa = telling(
      createYookassaSettingsService({
        providers,
        keys,
        publicUrl,
        storeCurrency,
        testConnection: (shopKeys) => testYookassaConnection(shopKeys, { apiUrl: config.yookassaApiUrl }),
        keysChanging: keysChanging('yookassa'),
      }),
      events,
    );
    const cryptopay = telling(
      createCryptopaySettingsService({
        providers,
        keys,
        publicUrl,
        storeCurrency,
        testConnection: (appKeys) => testCryptopayConnection(appKeys, { apiUrl: config.cryptopayApiUrl }),
        keysChanging: keysChanging('cryptopay'),
      }),
      events,
    );
    const cards = createStripeDriverSource({ card, drivers: stripeDrivers });
    const stars = createStarsSources({
      botToken: deps.telegramBotToken,
      drivers: (token) => createStarsDriver({ token, apiRoot: config.telegramApiUrl, now: clock }),
      providers,
      clock,
    });
    const accountDrivers = createAccountDrivers({
      repo: deps.providerAccountsRepo,
      keys,
      clock,
      log,
      sources: [
        createStripeSource({ card, drivers: stripeDrivers }),
        createBtcpaySource({ crypto, drivers: cryptoDrivers }),
        createYookassaSource({ yookassa, drivers: yookassaDrivers }),
        createCryptopaySource({ cryptopay, drivers: cryptopayDrivers }),
        stars.source,
      ],
    });
    const payments = createPaymentDrivers({
      accounts: accountDrivers,
      billing: deps.billingRepo,
      checkouts: {
        card: { publicState: async () => ({ ready: (await card.getPublicState()).ready, priority: CARD_PRIORITY }), forCheckout: () => cards.forCheckout() },
        crypto: { publicState: () => crypto.getPublicState(), forCheckout: () => crypto.forCheckout(cryptoDrivers) },
        yookassa: { publicState: (currency) => yookassa.publicState(currency), forCheckout: (currency) => yookassa.forCheckout(currency, yookassaDrivers) },
        cryptopay: { publicState: (currency) => cryptopay.publicState(currency), forCheckout: (currency) => cryptopay.forCheckout(currency, cryptopayDrivers) },
        stars: stars.checkout,
      },
    });
    return { card, crypto, yookassa, cryptopay, cards, accountDrivers, payments, customers: createPaymentCustomers({ db, clock }) };
  },
  routes: ({ card, crypto, yookassa, cryptopay, audit, clock }) => [
    route(adminStripeSettingsRoutes, { card, audit, clock }),
    route(adminBtcpaySettingsRoutes, { crypto, audit, clock }),
    route(adminProviderSettingsRoutes, { yookassa, cryptopay, audit, clock }),
  ],
  listeners: ({ accountDrivers }) => ({
    'payment-keys.changing': ({ method }) => accountDrivers.rememberInForce(method),
  }),
});
