import { defineModule, route, type Provided } from '../../module.js';
import { billingRoutes } from '../billing.routes.js';
import type { WithCheckout } from '../checkout/checkout.module.js';
import { adminProviderAccountsRoutes } from '../provider-accounts/provider-accounts.routes.js';
import { createProviderAccountsService } from '../provider-accounts/provider-accounts.service.js';
import { createCreditPush, SWEEP_REFERRAL_CREDIT } from './credit-push.js';
import { recurringJobHandlers } from './recurring-jobs.js';
import { createReconcileScheduleRepo } from './reconcile-schedule.repo.js';
import { RECONCILE_SUBSCRIPTIONS } from './reconcile-subscriptions.js';
import { createRenewalScheduleRepo } from './renewal-schedule.repo.js';
import { createSavedMethodsService } from './saved-methods.service.js';
import { SEND_RENEWAL_REMINDERS } from './send-renewal-reminders.js';
import { createStoreRenewals, SCAN_STORE_RENEWALS } from './store-renewals.js';
import { createSubscriptionControls } from './subscription-controls.js';
import { adminSubscriptionsRoutes } from './subscriptions-admin.routes.js';
import { enqueueCustomerLanguageSync } from './sync-customer-language.js';
import { enqueuePlanPriceSync } from './sync-plan-price.js';

/**
 * Subscriptions that renew: cancel and resume, saved cards, renewals the store charges itself, reminders, the
 * reconciliation with the provider, plan prices kept in step, referral credit pushed to the provider's customer
 * balance, and the provider accounts that bill them. The customer's billing routes live here.
 */
export const subscriptionsModule = defineModule({
  name: 'billing-subscriptions',
  build(deps: WithCheckout) {
    const { db, config, clock, log, jobs, audit, billingRepo: billing, periods, payments, customers, recurring, confirmation } = deps;
    const savedMethods = deps.savedMethodsRepo;
    const subscriptionControls = createSubscriptionControls({
      db,
      billing,
      periods,
      admin: deps.subscriptionsAdmin,
      payments,
      billingAccountOfUser: (userId) => deps.providerAccountsRepo.billingAccountIdOfUser(userId),
      customers,
      recurring,
      savedMethods,
      paidPeriods: deps.paidPeriods,
      audit,
      clock,
      log,
      publicUrl: config.publicUrl,
    });
    return {
      subscriptionControls,
      storeRenewals: createStoreRenewals({
        db,
        billing,
        savedMethods,
        payments,
        users: deps.usersRepo,
        periods,
        jobs,
        apply: (state, trx) => confirmation.applyCheckout(state, trx),
        clock,
      }),
      savedMethods: createSavedMethodsService({ db, repo: savedMethods, billing, recurring, audit, clock }),
      providerAccounts: createProviderAccountsService({
        repo: deps.providerAccountsRepo,
        drivers: deps.accountDrivers,
        controls: subscriptionControls,
        audit,
        clock,
        log,
      }),
      creditPush: createCreditPush({
        db,
        repo: deps.referralsRepo,
        billing,
        customers,
        driverFor: (subscription) => payments.forSubscription(subscription),
        jobs,
        audit,
        clock,
        log,
      }),
    };
  },
  routes: (deps) => [
    route(billingRoutes, {
      checkout: deps.checkout,
      billing: deps.billing,
      controls: deps.subscriptionControls,
      savedMethods: deps.savedMethods,
      checkoutLimit: deps.limits.checkoutPerUser,
    }),
    route(adminSubscriptionsRoutes, { controls: deps.subscriptionControls }),
    route(adminProviderAccountsRoutes, { accounts: deps.providerAccounts }),
  ],
  jobs: (deps) => {
    const { db, clock, log, billingRepo: billing, periods, accountsRepo: accounts, plansRepo: plans, settings, payments, recurring } = deps;
    const driverFor = (subscription: Parameters<typeof payments.forSubscription>[0]) => payments.forSubscription(subscription);
    return {
      ...recurringJobHandlers({
        reconcile: { db, reads: createReconcileScheduleRepo(db), driverFor, recurring, clock, log },
        reminders: { schedule: createRenewalScheduleRepo(db), billing, periods, accounts, notices: deps.notices, settings, clock },
        planPrices: { plans, settings, cards: deps.cards },
        customerLanguage: { users: deps.usersRepo, customers: deps.customers, cards: deps.cards },
        deferRenewal: { db, billing, driverFor, recurring, clock, log },
      }),
      ...deps.creditPush.handlers,
      ...deps.storeRenewals.handlers,
    };
  },
  periodicJobs: [RECONCILE_SUBSCRIPTIONS, SEND_RENEWAL_REMINDERS, SWEEP_REFERRAL_CREDIT, SCAN_STORE_RENEWALS],
  listeners: ({ subscriptionControls, jobs, customers }) => ({
    // After checkout closed the account's open renewals: its subscription ends at the provider.
    'account.deleting': ({ accountId }) => subscriptionControls.endForDeletedAccount(accountId),
    'recurring-plan.saved': async ({ plan, now }) => {
      await enqueuePlanPriceSync(jobs, plan, now);
    },
    'user.language-changed': async ({ userId, now }) => {
      await enqueueCustomerLanguageSync({ jobs, customers }, userId, now);
    },
  }),
});

export type WithSubscriptions = WithCheckout & Provided<typeof subscriptionsModule>;
