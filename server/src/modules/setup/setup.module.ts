import type { Foundation } from '../../records.module.js';
import { defineModule, route } from '../module.js';
import { createSetupChecklist } from './setup-checklist.js';
import { adminSetupRoutes } from './setup.routes.js';

/** The admin's setup checklist: what a new store still needs before it can sell. */
export const setupModule = defineModule({
  name: 'setup',
  build({ db, settingsRepo }: Foundation) {
    return { setup: createSetupChecklist({ db, settings: settingsRepo }) };
  },
  routes: ({ setup }) => [route(adminSetupRoutes, { setup })],
});
