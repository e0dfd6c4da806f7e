import type { WithAccounts } from '../accounts/index.js';
import { defineModule, route } from '../module.js';
import { createDevicesRepo } from './devices.repo.js';
import { accountDevicesRoutes, adminAccountDevicesRoutes } from './devices.routes.js';
import { createDevicesService, DEVICES_CHANGED_CHANNEL } from './devices.service.js';

/** The devices `/sub` admitted to each account: listed and removed by their owner or an admin. */
export const devicesModule = defineModule({
  name: 'devices',
  build({ db, audit, clock, broadcast, settings }: WithAccounts) {
    return {
      devices: createDevicesService({
        repo: createDevicesRepo(db),
        audit,
        clock,
        devicesChanged: (accountId) => broadcast.publish(DEVICES_CHANGED_CHANNEL, accountId),
        devicelessWindowHours: async () => (await settings.getAppSettings()).devicelessWindowHours,
      }),
    };
  },
  routes: ({ devices }) => [route(accountDevicesRoutes, { devices }), route(adminAccountDevicesRoutes, { devices })],
});
