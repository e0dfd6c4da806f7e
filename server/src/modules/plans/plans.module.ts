import type { Configured } from '../settings/index.js';
import type { serversModule } from '../servers/index.js';
import { defineModule, route, type Provided } from '../module.js';
import { adminPlansRoutes, publicPlansRoutes } from './plans.routes.js';
import { createPlansService } from './plans.service.js';

/** The plans: the admin's catalogue and the public pricing list (which follows every change, on every instance). */
export const plansModule = defineModule({
  name: 'plans',
  build({ plansRepo, servers, settings, audit, clock, events, changeSignal }: Configured & Provided<typeof serversModule>) {
    return {
      plans: createPlansService({
        plans: plansRepo,
        servers,
        settings,
        audit,
        clock,
        onChange: () => events.tell('site.changed', {}),
        siteVersion: () => changeSignal.version(),
        recurringPlanSaved: (plan) => events.emit('recurring-plan.saved', { plan, now: clock() }),
      }),
    };
  },
  routes: ({ plans }) => [route(publicPlansRoutes, { plans }), route(adminPlansRoutes, { plans })],
});
