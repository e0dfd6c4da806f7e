import type { WithBilling } from '../billing/index.js';
import { defineModule, route } from '../module.js';
import { createGiftCodesRepo } from './gift-codes.repo.js';
import { adminGiftCodesRoutes, giftRedeemRoutes } from './gift-codes.routes.js';
import { createGiftCodesService } from './gift-codes.service.js';

/** Gift codes: batches the admin issues, and the customer's redemption (a plan's time, as an order of its own). */
export const giftCodesModule = defineModule({
  name: 'gift-codes',
  build({ db, audit, clock, plansRepo, accountsRepo, billingRepo, settings, orders, checkout }: WithBilling) {
    return {
      gifts: createGiftCodesService({
        db,
        repo: createGiftCodesRepo(db),
        plans: plansRepo,
        accounts: accountsRepo,
        billing: billingRepo,
        settings,
        orders,
        audit,
        clock,
        canProvision: (plan) => checkout.assertCanProvision(plan),
      }),
    };
  },
  routes: ({ gifts, limits }) => [route(giftRedeemRoutes, { gifts, checkoutLimit: limits.checkoutPerUser }), route(adminGiftCodesRoutes, { gifts })],
});
