import type { WithAccounts } from '../accounts/accounts.module.js';
import { defineModule, route, type Provided } from '../module.js';
import type { promoCodesModule } from '../promo-codes/promo-codes.module.js';
import { createCreditPush, SWEEP_REFERRAL_CREDIT } from './recurring/credit-push.js';
import type { referralsModule } from '../referrals/referrals.module.js';
import { billingJobHandlers } from './billing-jobs.js';
import { billingRoutes } from './billing.routes.js';
import { createBillingService } from './billing.service.js';
import { checkoutJobHandlers } from './checkout/checkout-jobs.js';
import { createCheckoutService } from './checkout/checkout.service.js';
import { createFulfilment } from './fulfilment/fulfilment.js';
import { createOrderRows } from './checkout/order-rows.js';
import { createPaymentConfirmation } from './checkout/payment-confirmation.js';
import { createTopUpCheckout } from './checkout/top-up-checkout.js';
import { POLL_OPEN_CHECKOUTS } from './checkout/poll-open-checkouts.js';
import { ledgerJobHandlers } from './ledger/ledger-jobs.js';
import { createPaidPeriods } from './ledger/paid-period.js';
import { adminProviderAccountsRoutes } from './provider-accounts/provider-accounts.routes.js';
import { createProviderAccountsService } from './provider-accounts/provider-accounts.service.js';
import { recurringJobHandlers } from './recurring/recurring-jobs.js';
import { createRecurringPayments } from './recurring/recurring-payments.js';
import { createReconcileScheduleRepo } from './recurring/reconcile-schedule.repo.js';
import { RECONCILE_SUBSCRIPTIONS } from './recurring/reconcile-subscriptions.js';
import { createRenewalScheduleRepo } from './recurring/renewal-schedule.repo.js';
import { createSavedMethodsService } from './recurring/saved-methods.service.js';
import { SEND_RENEWAL_REMINDERS } from './recurring/send-renewal-reminders.js';
import { createStoreRenewalOutcomes } from './recurring/store-renewal-outcomes.js';
import { createStoreRenewals, SCAN_STORE_RENEWALS } from './recurring/store-renewals.js';
import { createSubscriptionControls } from './recurring/subscription-controls.js';
import { adminSubscriptionsRoutes } from './recurring/subscriptions-admin.routes.js';
import { enqueuePlanPriceSync } from './recurring/sync-plan-price.js';
import { createKeptReversalsRepo } from './refunds/kept-reversals.repo.js';
import { createPaymentReversals } from './refunds/payment-reversals.js';
import { createRefundSender } from './refunds/refund-sender.js';
import { refundJobHandlers } from './refunds/refund-jobs.js';
import { adminTransactionsRoutes } from './refunds/refunds.routes.js';
import { createRefundsService } from './refunds/refunds.service.js';
import { createRevenueReport } from './refunds/revenue-report.js';
import { paymentWebhookRoutes } from './webhooks/payment-webhooks.routes.js';
import { createPaymentWebhooksService } from './webhooks/payment-webhooks.service.js';
import { createUnreadableWebhooksRepo } from './webhooks/unreadable-webhooks.repo.js';

type BillingNeeds = WithAccounts & Provided<typeof promoCodesModule> & Provided<typeof referralsModule>;

/** Refunds, reversals and recurring payments: what a paid period becomes when money moves back or renews. */
function buildMoneyMovements(deps: BillingNeeds) {
  const { db, clock, log, jobs, audit, notices, billingRepo: billing, periods, accountsRepo: accounts, payments, walletLedger: wallet, refundsRepo: refunds } = deps;
  const paidPeriods = createPaidPeriods({ billing, periods, settings: deps.settings, clock });
  const reversals = createPaymentReversals({ billing, periods, accounts, refunds, kept: createKeptReversalsRepo(), jobs, wallet, clock, log });
  const recurring = createRecurringPayments({ billing, periods, accounts, jobs, reversals, notices, clock, log });
  const refundSender = createRefundSender({ db, billing, refunds, payments, reversals, jobs, audit, clock, log });
  return {
    paidPeriods, reversals, recurring, refundSender,
    refunds: createRefundsService({ db, billing, refunds, sender: refundSender, payments, reversals, wallet, audit, clock }),
  };
}

/** Payments arriving: confirmation (webhook or poll), delivery of what was paid for, checkout and store-run renewals. */
function buildPayments(deps: BillingNeeds & ReturnType<typeof buildMoneyMovements>) {
  const { db, config, clock, log, jobs, audit, notices, billingRepo: billing, periods, accountsRepo: accounts, payments, customers, savedMethodsRepo: savedMethods } = deps;
  const storeOutcomes = createStoreRenewalOutcomes({ billing, accounts, notices, clock, log });
  const confirmation = createPaymentConfirmation({
    db, billing, periods, accounts, jobs, recurring: deps.recurring, reversals: deps.reversals, notices, wallet: deps.walletLedger, savedMethods, storeOutcomes, clock, log,
  });
  const subscriptionControls = createSubscriptionControls({
    db, billing, periods, admin: deps.subscriptionsAdmin, payments, billingAccountOfUser: (userId) => deps.providerAccountsRepo.billingAccountIdOfUser(userId),
    customers, recurring: deps.recurring, savedMethods, paidPeriods: deps.paidPeriods, audit, clock, log, publicUrl: config.publicUrl,
  });
  const orders = createOrderRows({ billing, accounts, confirmation, clock });
  const { referrals } = deps;
  return {
    confirmation, subscriptionControls, orders,
    storeRenewals: createStoreRenewals({ db, billing, savedMethods, payments, users: deps.usersRepo, periods, jobs, apply: (state, trx) => confirmation.applyCheckout(state, trx), clock }),
    checkout: createCheckoutService({
      db, billing, accounts, accountsService: deps.accounts, plans: deps.plansRepo, settings: deps.settings, payments, provisioner: deps.provisioner,
      servers: deps.servers, confirmation, customers, promos: deps.promos, referralDiscount: (userId) => referrals.discountCodeFor(userId), credit: deps.creditSpending,
      referralBonusDays: (userId) => referrals.bonusDaysFor(userId), orders, jobs, clock, log, publicUrl: config.publicUrl,
    }),
    fulfilment: createFulfilment({
      db, billing, accounts, provisioner: deps.provisioner, servers: deps.servers, paidPeriods: deps.paidPeriods, periods, clock, log,
      refundUndeliverable: (transactionId, why) => deps.refunds.refundUndeliverable(transactionId, why),
    }),
  };
}

/**
 * Billing: checkout with every provider, the paid-period ledger, recurring payments (the provider's or the
 * store's own), refunds, webhooks, the customer's subscriptions and cards, and the revenue report.
 */
export const billingModule = defineModule({
  name: 'billing',
  build(deps: BillingNeeds) {
    const { db, clock, log, jobs, audit, billingRepo: billing, payments } = deps;
    const movements = buildMoneyMovements(deps);
    const paying = buildPayments({ ...deps, ...movements });
    const unreadableWebhooks = createUnreadableWebhooksRepo(db);
    return {
      ...movements,
      ...paying,
      unreadableWebhooks,
      providerAccounts: createProviderAccountsService({ repo: deps.providerAccountsRepo, drivers: deps.accountDrivers, controls: paying.subscriptionControls, audit, clock, log }),
      creditPush: createCreditPush({
        db, repo: deps.referralsRepo, billing, customers: deps.customers, driverFor: (subscription) => payments.forSubscription(subscription), jobs, audit, clock, log,
      }),
      billing: createBillingService({ billing, paidPeriods: movements.paidPeriods, savedMethods: deps.savedMethodsRepo, clock }),
      savedMethods: createSavedMethodsService({ db, repo: deps.savedMethodsRepo, billing, recurring: movements.recurring, audit, clock }),
      paymentWebhooks: createPaymentWebhooksService({
        db, billing, payments, confirmation: paying.confirmation, reversals: movements.reversals, recurring: movements.recurring, unreadable: unreadableWebhooks, clock, log,
      }),
      revenue: createRevenueReport({ db, clock }),
      // A wallet top-up is a checkout of its own (the wallet module offers it).
      topUps: createTopUpCheckout({ db, billing, payments, accounts: deps.accountsRepo, settings: deps.settings, jobs, clock, log, publicUrl: deps.config.publicUrl }),
    };
  },
  routes: (deps) => [
    route(billingRoutes, { checkout: deps.checkout, billing: deps.billing, controls: deps.subscriptionControls, savedMethods: deps.savedMethods, checkoutLimit: deps.limits.checkoutPerUser }),
    route(paymentWebhookRoutes, { webhooks: deps.paymentWebhooks }),
    route(adminTransactionsRoutes, { refunds: deps.refunds, revenue: deps.revenue }),
    route(adminSubscriptionsRoutes, { controls: deps.subscriptionControls }),
    route(adminProviderAccountsRoutes, { accounts: deps.providerAccounts }),
  ],
  jobs: (deps) => {
    const { db, config, clock, log, mailer, billingRepo: billing, periods, accountsRepo: accounts, plansRepo: plans, usersRepo: users, settings, payments, recurring, paidPeriods, notices } = deps;
    const driverFor = (subscription: Parameters<typeof payments.forSubscription>[0]) => payments.forSubscription(subscription);
    return {
      ...checkoutJobHandlers({ billing, payments, confirmation: deps.confirmation, fulfilment: deps.fulfilment, clock, log }),
      ...ledgerJobHandlers({ billing, accounts, servers: deps.servers, paidPeriods, notices, clock }),
      ...billingJobHandlers({ billing, periods, accounts, plans, users, settings, paidPeriods, mailer, publicUrl: config.publicUrl, clock }),
      ...recurringJobHandlers({
        reconcile: { db, reads: createReconcileScheduleRepo(db), driverFor, recurring, clock, log },
        reminders: { schedule: createRenewalScheduleRepo(db), billing, periods, accounts, notices, settings, clock },
        planPrices: { plans, settings, cards: deps.cards },
        deferRenewal: { db, billing, driverFor, recurring, clock, log },
      }),
      ...deps.creditPush.handlers,
      ...deps.storeRenewals.handlers,
      ...refundJobHandlers({ db, billing, payments, recurring, sender: deps.refundSender, plans, users, settings, mailer, publicUrl: config.publicUrl }),
    };
  },
  periodicJobs: [RECONCILE_SUBSCRIPTIONS, SEND_RENEWAL_REMINDERS, SWEEP_REFERRAL_CREDIT, POLL_OPEN_CHECKOUTS, SCAN_STORE_RENEWALS],
  listeners: ({ checkout, subscriptionControls, jobs }) => ({
    'account.deleting': async ({ accountId }) => {
      await checkout.closeOpenRenewals(accountId);
      await subscriptionControls.endForDeletedAccount(accountId);
    },
    'recurring-plan.saved': async ({ plan, now }) => {
      await enqueuePlanPriceSync(jobs, plan, now);
    },
  }),
});

/** What the modules after billing may use. */
export type WithBilling = BillingNeeds & Provided<typeof billingModule>;
