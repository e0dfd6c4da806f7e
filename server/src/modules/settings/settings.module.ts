import type { Foundation } from '../../records.module.js';
import { defineModule, route, type Provided } from '../module.js';
import { createCachedSettings } from './settings-cache.js';
import { adminSettingsRoutes, publicConfigRoutes } from './settings.routes.js';
import { createSettingsService, type PaymentsOnOffer } from './settings.service.js';

/** The store's settings (the admin's form, the public settings every page reads), cached until the site changes. */
export const settingsModule = defineModule({
  name: 'settings',
  build({ config, clock, events, changeSignal, settingsRepo, plansRepo, card, payments }: Foundation & PaymentsOnOffer) {
    const settings = createCachedSettings(
      createSettingsService({
        settings: settingsRepo,
        cardPublicState: () => card.getPublicState(),
        paymentMethods: (currency) => payments.availableMethods(currency),
        planExists: async (id) => (await plansRepo.findById(id)) !== undefined,
        trialOnSale: async (trialPlanId) => (await plansRepo.listActive()).some((plan) => plan.isTrial || plan.id === trialPlanId),
        publicUrl: config.publicUrl,
        subscriptionLinksMoved: (host, now) => events.emit('subscription-links.moved', { host, now }),
      }),
      { signal: changeSignal, now: () => clock().getTime() },
    );
    return { settings };
  },
  routes: ({ settings, audit, clock }) => [route(publicConfigRoutes, { settings }), route(adminSettingsRoutes, { settings, audit, clock })],
});

/** What the modules after settings may use. */
export type Configured = Foundation & Provided<typeof settingsModule>;
