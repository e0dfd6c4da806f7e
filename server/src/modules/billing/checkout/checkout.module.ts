import { defineModule, type Provided } from '../../module.js';
import { createFulfilment } from '../fulfilment/fulfilment.js';
import { createStoreRenewalOutcomes } from '../recurring/store-renewal-outcomes.js';
import type { WithRefunds } from '../refunds/refunds.module.js';
import { checkoutJobHandlers } from './checkout-jobs.js';
import { createCheckoutService } from './checkout.service.js';
import { createOrderRows } from './order-rows.js';
import { createPaymentConfirmation } from './payment-confirmation.js';
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
      savedMethods: deps.savedMethodsRepo,
      storeOutcomes: createStoreRenewalOutcomes({ billing, accounts, notices, clock, log }),
      clock,
      log,
    });
    const orders = createOrderRows({ billing, accounts, confirmation, clock });
    return {
      confirmation,
      orders,
      checkout: createCheckoutService({
        db,
        billing,
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
        paidPeriods: deps.paidPeriods,
        periods,
        clock,
        log,
        refundUndeliverable: (transactionId, why) => deps.refunds.refundUndeliverable(transactionId, why),
      }),
      topUps: createTopUpCheckout({ db, billing, payments, accounts, settings: deps.settings, jobs, clock, log, publicUrl: config.publicUrl }),
    };
  },
  jobs: ({ clock, log, billingRepo: billing, payments, confirmation, fulfilment }) =>
    checkoutJobHandlers({ billing, payments, confirmation, fulfilment, clock, log }),
  periodicJobs: [POLL_OPEN_CHECKOUTS],
  listeners: ({ checkout }) => ({
    // An account about to be deleted: nobody can pay for it any more (a renewal paid meanwhile refuses the deletion).
    'account.deleting': ({ accountId }) => checkout.closeOpenRenewals(accountId),
  }),
});

export type WithCheckout = WithRefunds & Provided<typeof checkoutModule>;
