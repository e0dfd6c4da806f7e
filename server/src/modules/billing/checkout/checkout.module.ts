import { defineModule, type Provided } from '../../module.js';
import { createFulfilment } from '../fulfilment/fulfilment.js';
import { createStoreRenewalOutcomes } from '../recurring/store-renewal-outcomes.js';
import type { WithRefunds } from '../refunds/refunds.module.js';
import { checkoutJobHandlers } from './checkout-jobs.js';
import { createCheckoutService } from './checkout.service.js';
import { createOrderRows } from './order-rows.js';
import { createPaymentConfirmation } from './payment-confirmation.js';
import { createAddOnsRepo } from '../add-ons/add-ons.repo.js';
import { createTrialsRepo } from '../trials/trials.repo.js';
import { END_DEVICE_ADD_ONS, endDeviceAddOnsHandler, revokeAddOnHandler } from '../add-ons/add-on-jobs.js';
import { REVOKE_ADD_ON } from '../fulfilment/paid-account-jobs.js';
import { APPLY_WAITING_PLAN_CHANGES, createApplyWaitingPlanChangesHandler } from './plan-change-jobs.js';
import { POLL_OPEN_CHECKOUTS } from './poll-open-checkouts.js';
import { createTopUpCheckout } from './top-up-checkout.js';

/**
 * Checkout with every provider: orders and their follow-up, the confirmation of a payment (webhook or poll), the
 * delivery of what was paid for, and wallet top-ups (the wallet module offers them).
 */
export const checkoutModule = defineModule({
  name: 'billing-checkout',
  build(deps: WithRefunds) {
    const { db, config, clock, log, jobs, notices, billingRepo: billing, periods, accountsRepo: accounts, payments, referrals } = deps;
    const addOns = createAddOnsRepo(db);
    const trials = createTrialsRepo(db);
    const confirmation = createPaymentConfirmation({
      db,
      billing,
      periods,
      accounts,
      jobs,
      recurring: deps.recurring,
      reversals: deps.reversals,
      notices,
      wallet: deps.walletLedger,
      addOns,
      trials,
      savedMethods: deps.savedMethodsRepo,
      storeOutcomes: createStoreRenewalOutcomes({ billing, accounts, notices, clock, log }),
      clock,
      log,
    });
    const orders = createOrderRows({ billing, accounts, trials, confirmation, clock });
    return {
      addOnsRepo: addOns,
      confirmation,
      orders,
      checkout: createCheckoutService({
        db,
        billing,
        periods,
        addOns,
        accounts,
        accountsService: deps.accounts,
        plans: deps.plansRepo,
        settings: deps.settings,
        payments,
        provisioner: deps.provisioner,
        servers: deps.servers,
        confirmation,
        customers: deps.customers,
        promos: deps.promos,
        referralDiscount: (userId) => referrals.discountCodeFor(userId),
        credit: deps.creditSpending,
        referralBonusDays: (userId) => referrals.bonusDaysFor(userId),
        orders,
        trials,
        jobs,
        clock,
        log,
        publicUrl: config.publicUrl,
      }),
      fulfilment: createFulfilment({
        db,
        billing,
        accounts,
        provisioner: deps.provisioner,
        servers: deps.servers,
        plans: deps.plansRepo,
        paidPeriods: deps.paidPeriods,
        periods,
        addOns,
        clock,
        log,
        refundUndeliverable: (transactionId, why) => deps.refunds.refundUndeliverable(transactionId, why),
        userChanged: (userId) => deps.events.tell('user.changed', { userId }),
      }),
      topUps: createTopUpCheckout({ db, billing, payments, accounts, settings: deps.settings, jobs, clock, log, publicUrl: config.publicUrl }),
    };
  },
  jobs: ({ db, clock, log, billingRepo: billing, payments, confirmation, fulfilment, accountsRepo: accounts, plansRepo: plans, servers, addOnsRepo }) => ({
    ...checkoutJobHandlers({ db, billing, payments, confirmation, fulfilment, clock, log }),
    [APPLY_WAITING_PLAN_CHANGES]: createApplyWaitingPlanChangesHandler({ db, accounts, plans, servers, clock, log }),
    [REVOKE_ADD_ON]: revokeAddOnHandler(fulfilment),
    [END_DEVICE_ADD_ONS]: endDeviceAddOnsHandler({ addOns: addOnsRepo, clock }),
  }),
  periodicJobs: [POLL_OPEN_CHECKOUTS, APPLY_WAITING_PLAN_CHANGES, END_DEVICE_ADD_ONS],
  listeners: ({ checkout }) => ({
    // An account about to be deleted: nobody can pay for it any more (a renewal paid meanwhile refuses the deletion).
    'account.deleting': ({ accountId }) => checkout.closeOpenRenewals(accountId),
  }),
});

export type WithCheckout = WithRefunds & Provided<typeof checkoutModule>;
