import { defineModule, route } from '../../module.js';
import type { WithCheckout } from '../checkout/checkout.module.js';
import { accountAddOnsRoutes, adminAddOnsRoutes } from './add-ons.routes.js';
import { createAddOnsService } from './add-ons.service.js';

/** Add-ons: what the operator sells on top of plans, and what accounts may buy and have (bought as orders by checkout). */
export const addOnsModule = defineModule({
  name: 'billing-add-ons',
  build({ db, addOnsRepo, plansRepo, accountsRepo, audit, clock }: WithCheckout) {
    return { addOns: createAddOnsService({ db, repo: addOnsRepo, plans: plansRepo, accounts: accountsRepo, audit, clock }) };
  },
  routes: ({ addOns, checkout, limits }) => [
    route(accountAddOnsRoutes, { addOns, checkout, checkoutLimit: limits.checkoutPerUser }),
    route(adminAddOnsRoutes, { addOns }),
  ],
});
