import type { Configured } from '../settings/index.js';
import { defineModule, route } from '../module.js';
import { createPromoCodesRepo } from './promo-codes.repo.js';
import { adminPromoCodesRoutes } from './promo-codes.routes.js';
import { createPromoCodesService } from './promo-codes.service.js';

/** Promo codes: the admin's list, and the discount a code gives at checkout. */
export const promoCodesModule = defineModule({
  name: 'promo-codes',
  build({ db, audit, clock, plansRepo, settings }: Configured) {
    return { promos: createPromoCodesService({ db, repo: createPromoCodesRepo(db), plans: plansRepo, settings, audit, clock }) };
  },
  routes: ({ promos }) => [route(adminPromoCodesRoutes, { promos })],
});
