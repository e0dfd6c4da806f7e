import type { WithAccounts } from '../accounts/index.js';
import { DEVICES_CHANGED_CHANNEL } from '../devices/index.js';
import { defineModule, route } from '../module.js';
import { createLinksMovedHandler, enqueueLinksMoved, SUBSCRIPTION_LINKS_MOVED } from './links-moved.js';
import { subscriptionRoutes } from './subscription.routes.js';
import { createSubscriptionService } from './subscription.service.js';

/**
 * `/sub/<token>`: the customer's configuration from their panel, with the device limit, cached and stored;
 * customers told by e-mail when their links move to another domain, and when a new device is refused over the limit.
 */
export const subscriptionModule = defineModule({
  name: 'subscription',
  build({ db, config, clock, log, settings, changeSignal, broadcast, notices }: WithAccounts) {
    const subscription = createSubscriptionService({
      db,
      settings,
      publicUrl: config.publicUrl,
      clock,
      log,
      settingsVersion: () => changeSignal.version(),
      notices,
    });
    // A removed device stops being admitted on every instance at once (through the broadcast; if it is down, within /sub's few-second cache).
    broadcast.subscribe(DEVICES_CHANGED_CHANNEL, (accountId) => subscription.forgetDevices(accountId));
    return { subscription };
  },
  routes: ({ subscription, limits }) => [route(subscriptionRoutes, { service: subscription, limitPerIp: limits.subPerIp })],
  jobs: ({ db, config, notices, settings }) => ({
    [SUBSCRIPTION_LINKS_MOVED]: createLinksMovedHandler({
      db,
      notices,
      publicUrl: config.publicUrl,
      subscriptionDomains: async () => (await settings.getAppSettings()).subscriptionDomains,
    }),
  }),
  listeners: ({ subscription, jobs }) => ({
    'account.changed': ({ accountId }) => subscription.invalidateAccount(accountId),
    'subscription-links.moved': async ({ host, now }) => {
      await enqueueLinksMoved(jobs, host, now);
    },
  }),
});
