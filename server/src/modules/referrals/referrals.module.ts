import type { Configured } from '../settings/index.js';
import type { promoCodesModule } from '../promo-codes/index.js';
import { defineModule, route, type Provided } from '../module.js';
import { createCreditSpending } from '../credit/index.js';
import { createReferralRewards } from './referral-rewards.js';
import { adminReferralsRoutes, myReferralsRoutes, referralLinkRoutes } from './referrals.routes.js';
import { createReferralsService } from './referrals.service.js';

/**
 * Referrals: each customer's link and code, the credit a referred payment earns its referrer (moved with the
 * payment's status, in its transaction), and the credit spent at checkout.
 */
export const referralsModule = defineModule({
  name: 'referrals',
  build({ db, config, audit, clock, settings, promos, referralsRepo }: Configured & Provided<typeof promoCodesModule>) {
    const referralRewards = createReferralRewards({ repo: referralsRepo, audit });
    return {
      referralRewards,
      creditSpending: createCreditSpending({ repo: referralsRepo, audit }),
      referrals: createReferralsService({ db, repo: referralsRepo, rewards: referralRewards, settings, promos, audit, clock, publicUrl: config.publicUrl }),
    };
  },
  routes: ({ referrals, secureCookies }) => [
    route(adminReferralsRoutes, { referrals }),
    route(myReferralsRoutes, { referrals }),
    route(referralLinkRoutes, { referrals, secureCookies }),
  ],
  listeners: ({ referralRewards, creditSpending }) => ({
    'transaction.transitioned': async ({ transaction, event, now, trx }) => {
      await referralRewards.onTransition(transaction, event, now, trx);
      await creditSpending.onTransition(transaction, event, now, trx);
    },
  }),
});
