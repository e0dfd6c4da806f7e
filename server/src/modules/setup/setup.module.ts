import type { Configured } from '../settings/index.js';
import { defineModule, route } from '../module.js';
import { createSetupChecklist } from './setup-checklist.js';
import { adminSetupRoutes } from './setup.routes.js';

/** The admin's setup checklist: what a new store still needs before it can sell. */
export const setupModule = defineModule({
  name: 'setup',
  build({ db, settingsRepo, settings }: Configured) {
    return { setup: createSetupChecklist({ db, settings: settingsRepo, config: settings }) };
  },
  routes: ({ setup }) => [route(adminSetupRoutes, { setup })],
});
