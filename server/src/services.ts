import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/knex.js';
import { CLEANUP_PANEL_USER, cleanupPanelUserJob, createCleanupPanelUserHandler } from './modules/accounts/cleanup-panel-user.js';
import { createSweepStuckAccountsHandler, scheduleStuckAccountsSweep, SWEEP_STUCK_ACCOUNTS } from './modules/accounts/sweep-stuck-accounts.js';
import { createPurgeOldRowsHandler, PURGE_OLD_ROWS, scheduleOldRowsPurge } from './modules/retention/purge-old-rows.js';
import { CHECK_PANEL_HEALTH, createCheckPanelHealthHandler, schedulePanelHealthChecks } from './modules/servers/check-panel-health.js';
import { createSendServerHealthEmailHandler } from './modules/servers/send-server-health-email.js';
import { createServerHealth, SEND_SERVER_HEALTH_EMAIL } from './modules/servers/server-health.js';
import { createSyncPanelAccountsHandler, schedulePanelSync, SYNC_PANEL_ACCOUNTS } from './modules/panel-sync/sync-panel-accounts.js';
import { createPanelSync } from './modules/panel-sync/panel-sync.js';
import { createPanelSyncRepo } from './modules/panel-sync/panel-sync.repo.js';
import { createDailyStatsRepo } from './modules/overview/daily-stats.repo.js';
import { createOverviewRepo } from './modules/overview/overview.repo.js';
import { createCommitToken } from './db/commit-token.js';
import { createOverviewService } from './modules/overview/overview.service.js';
import { createSnapshotDailyStatsHandler, scheduleDailySnapshot, SNAPSHOT_DAILY_STATS } from './modules/overview/snapshot-daily-stats.js';
import { createAdminAccountActions } from './modules/accounts/admin-account-actions.js';
import { createUserPageRepo } from './modules/users/user-page.repo.js';
import { createUserPageService } from './modules/users/user-page.service.js';
import { createJobsRepo } from './jobs/jobs.repo.js';
import type { JobHandler } from './jobs/worker.js';
import type { Clock } from './lib/clock.js';
import type { Keys } from './lib/crypto.js';
import type { Mailer } from './mail/mailer.js';
import { createAccountsRepo } from './modules/accounts/accounts.repo.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createProvisioner } from './modules/accounts/provisioning.js';
import { createStuckAccountsSweep } from './modules/accounts/stuck-accounts.js';
import { createAuditRepo } from './modules/audit/audit.repo.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createOtpRepo } from './modules/auth/otp.repo.js';
import { createSessionsRepo } from './modules/auth/sessions.repo.js';
import { createBillingRepo } from './modules/billing/billing.repo.js';
import { createBillingService } from './modules/billing/billing.service.js';
import { billingJobHandlers } from './modules/billing/billing-jobs.js';
import { createPaymentWebhooksService } from './modules/billing/webhooks/payment-webhooks.service.js';
import { createUnreadableWebhooksRepo } from './modules/billing/webhooks/unreadable-webhooks.repo.js';
import { createStripeSettingsService } from './modules/billing/provider-accounts/stripe-settings.service.js';
import { createCheckoutService } from './modules/billing/checkout/checkout.service.js';
import { createOrderRows } from './modules/billing/checkout/order-rows.js';
import { checkoutJobHandlers } from './modules/billing/checkout/checkout-jobs.js';
import { POLL_OPEN_CHECKOUTS, scheduleOpenCheckoutsPoll } from './modules/billing/checkout/poll-open-checkouts.js';
import { createFulfilment } from './modules/billing/checkout/fulfilment.js';
import { createPaymentConfirmation } from './modules/billing/checkout/payment-confirmation.js';
import { createBillingNotices } from './modules/billing/billing-notices.js';
import { createSavedMethodsRepo } from './modules/billing/recurring/saved-methods.repo.js';
import { createSavedMethodsService } from './modules/billing/recurring/saved-methods.service.js';
import { createStoreRenewalOutcomes } from './modules/billing/recurring/store-renewal-outcomes.js';
import { createStoreRenewals, SCAN_STORE_RENEWALS, scheduleStoreRenewals } from './modules/billing/recurring/store-renewals.js';
import { createPaidPeriods } from './modules/billing/ledger/paid-period.js';
import { createPaymentCustomers } from './modules/billing/provider-accounts/payment-customers.js';
import { createRecurringPayments } from './modules/billing/recurring/recurring-payments.js';
import { createRenewalScheduleRepo } from './modules/billing/recurring/renewal-schedule.repo.js';
import { createReconcileScheduleRepo } from './modules/billing/recurring/reconcile-schedule.repo.js';
import { createSubscriptionControls } from './modules/billing/recurring/subscription-controls.js';
import { createSubscriptionsAdminRepo } from './modules/billing/recurring/subscriptions-admin.repo.js';
import { enqueuePlanPriceSync } from './modules/billing/recurring/sync-plan-price.js';
import type { DriverForSubscription } from './modules/billing/recurring/reconcile-subscriptions.js';
import { RECURRING_PERIODIC_JOBS, recurringJobHandlers, scheduleRecurringPaymentJobs } from './modules/billing/recurring/recurring-jobs.js';
import { createPaymentProvidersRepo } from './modules/billing/provider-accounts/payment-providers.repo.js';
import { createStripeDriverSource } from './modules/billing/provider-accounts/stripe-driver-source.js';
import { createAccountDrivers } from './modules/billing/provider-accounts/account-drivers.js';
import { createStripeSource } from './modules/billing/provider-accounts/stripe-source.js';
import { createBtcpaySource } from './modules/billing/provider-accounts/btcpay-source.js';
import { CARD_PRIORITY } from '../../shared/billing.js';
import { createYookassaSource, type YookassaDriverFactory } from './modules/billing/provider-accounts/yookassa-source.js';
import { createCryptopaySource, type CryptopayDriverFactory } from './modules/billing/provider-accounts/cryptopay-source.js';
import { createYookassaSettingsService } from './modules/billing/provider-accounts/yookassa-settings.service.js';
import { createCryptopaySettingsService } from './modules/billing/provider-accounts/cryptopay-settings.service.js';
import { createYookassaDriver, testYookassaConnection } from './payments/yookassa/yookassa-driver.js';
import { createCryptopayDriver, testCryptopayConnection } from './payments/cryptopay/cryptopay-driver.js';
import { createProviderAccountsRepo } from './modules/billing/provider-accounts/provider-accounts.repo.js';
import { createProviderAccountsService } from './modules/billing/provider-accounts/provider-accounts.service.js';
import { createBtcpaySettingsService } from './modules/billing/provider-accounts/btcpay-settings.service.js';
import { createPaymentDrivers, type BtcpayDriverFactory } from './modules/billing/provider-accounts/payment-drivers.js';
import { createBtcpayDriver, testBtcpayConnection } from './payments/btcpay/btcpay-driver.js';
import { createPaymentReversals } from './modules/billing/refunds/payment-reversals.js';
import { createRefundsService } from './modules/billing/refunds/refunds.service.js';
import { createRefundsRepo } from './modules/billing/refunds/refunds.repo.js';
import { createKeptReversalsRepo } from './modules/billing/refunds/kept-reversals.repo.js';
import { createPaidPeriodsRepo } from './modules/billing/ledger/paid-periods.repo.js';
import { createRefundSender } from './modules/billing/refunds/refund-sender.js';
import { refundJobHandlers } from './modules/billing/refunds/refund-jobs.js';
import { ledgerJobHandlers } from './modules/billing/ledger/ledger-jobs.js';
import { createStripeDrivers, type StripeDriverFactory } from './payments/stripe/stripe-driver.js';
import { createPlansRepo } from './modules/plans/plans.repo.js';
import { createRetentionPurge } from './modules/retention/retention-purge.js';
import { createPlansService } from './modules/plans/plans.service.js';
import { createPromoCodesRepo } from './modules/promo-codes/promo-codes.repo.js';
import { createGiftCodesRepo } from './modules/gift-codes/gift-codes.repo.js';
import { createGiftCodesService } from './modules/gift-codes/gift-codes.service.js';
import { createPromoCodesService } from './modules/promo-codes/promo-codes.service.js';
import { createReferralsRepo } from './modules/referrals/referrals.repo.js';
import { createWalletLedgerRepo } from './modules/wallet/wallet-ledger.repo.js';
import { createWalletLedger } from './modules/wallet/wallet-ledger.js';
import { createWalletService } from './modules/wallet/wallet.service.js';
import { createRevenueReport } from './modules/billing/refunds/revenue-report.js';
import { createWalletRenewals, SCAN_WALLET_RENEWALS, scheduleWalletRenewals } from './modules/wallet/wallet-renewals.js';
import { createTopUpCheckout } from './modules/billing/checkout/top-up-checkout.js';
import { createReferralRewards } from './modules/referrals/referral-rewards.js';
import { createCreditSpending } from './modules/referrals/credit-spending.js';
import { createReferralsService } from './modules/referrals/referrals.service.js';
import { createCreditPush, scheduleReferralCreditSweep, SWEEP_REFERRAL_CREDIT } from './modules/referrals/credit-push.js';
import { createServersRepo } from './modules/servers/servers.repo.js';
import { createServersService } from './modules/servers/servers.service.js';
import { createPanelImportRepo } from './modules/panel-import/panel-import.repo.js';
import { createPanelImportService } from './modules/panel-import/panel-import.service.js';
import { createPanelUrlCheck } from './modules/servers/panel-address.js';
import { createSettingsRepo } from './modules/settings/settings.repo.js';
import { createSetupChecklist } from './modules/setup/setup-checklist.js';
import { createSettingsService } from './modules/settings/settings.service.js';
import { createCachedSettings } from './modules/settings/settings-cache.js';
import { createChangeSignal, type ChangeSignal } from './lib/change-signal.js';
import { createBroadcast } from './lib/broadcast.js';
import { cachedSessions, createSessionCache, forgettingUsers } from './modules/auth/session-cache.js';
import { createStatusService } from './modules/system/status.service.js';
import { createSubscriptionService } from './modules/subscription/subscription.service.js';
import { createLinksMovedHandler, enqueueLinksMoved, SUBSCRIPTION_LINKS_MOVED } from './modules/subscription/links-moved.js';
import { createDevicesRepo } from './modules/devices/devices.repo.js';
import { createDevicesService, DEVICES_CHANGED_CHANNEL } from './modules/devices/devices.service.js';
import { createSystemService } from './modules/system/system.service.js';
import { createProviderHealth } from './modules/system/provider-health.js';
import { createReleaseFeeds } from './modules/desktop-releases/release-feeds.js';
import { createUsersRepo } from './modules/users/users.repo.js';
import { createUsersService } from './modules/users/users.service.js';
import { createDriverRegistry, type DriverFactory } from './panels/driver-registry.js';

/** Card settings whose saves move the change signal (the public settings show whether cards are on). */
function signalling<T extends { updateSettings(...args: never[]): Promise<unknown> }>(service: T, signal: ChangeSignal): T {
  return {
    ...service,
    async updateSettings(...args: Parameters<T['updateSettings']>) {
      const saved = await service.updateSettings(...args);
      signal.changed();
      return saved;
    },
  };
}

export interface ServiceContext {
  config: Config;
  db: Db;
  clock: Clock;
  keys: Keys;
  mailer: Mailer;
  log: FastifyBaseLogger;
  driverFactory?: DriverFactory;
  /** How Stripe is reached; the real SDK at STRIPE_API_URL unless a test passes another. */
  stripeDrivers?: StripeDriverFactory;
  /** How the operator's BTCPay Server is reached (the real driver unless a test passes another). */
  cryptoDrivers?: BtcpayDriverFactory;
  /** How YooKassa is reached (the real driver at YOOKASSA_API_URL unless a test passes another). */
  yookassaDrivers?: YookassaDriverFactory;
  /** How Crypto Pay is reached (the real driver at CRYPTOPAY_API_URL unless a test passes another). */
  cryptopayDrivers?: CryptopayDriverFactory;
  signAccessToken(claims: { sub: string; sid: string }): string;
}

/** Every repository and service of the server, wired once per app. */
export function createServices(ctx: ServiceContext) {
  const { db, clock, keys, log } = ctx;
  // Messages between instances (Redis when REDIS_URL is set, else PostgreSQL's LISTEN/NOTIFY) that keep their in-memory caches honest.
  const broadcast = createBroadcast({ redisUrl: ctx.config.redisUrl, db, onError: (err) => log.warn({ err: err.message }, 'broadcast error') });
  const sessionsRepo = createSessionsRepo(db);
  const desktopReleases = createReleaseFeeds({ dir: ctx.config.desktopUpdatesDir, warn: (message) => log.warn(message) });
  const sessionCache = createSessionCache({ load: sessionsRepo.findSessionWithUser, broadcast, now: () => clock().getTime() });
  const sessions = cachedSessions(sessionsRepo, sessionCache);
  const users = forgettingUsers(createUsersRepo(db), sessionCache);
  const audit = createAuditRepo(db);
  const plansRepo = createPlansRepo(db);
  const serversRepo = createServersRepo(db);
  const accountsRepo = createAccountsRepo(db);
  const jobs = createJobsRepo(db);
  const referralsRepo = createReferralsRepo(db);
  const walletLedgerRepo = createWalletLedgerRepo(db);
  const walletLedger = createWalletLedger({ repo: walletLedgerRepo, audit });
  const referralRewards = createReferralRewards({ repo: referralsRepo, audit });
  const creditSpending = createCreditSpending({ repo: referralsRepo, audit });
  // Every payment's status change moves its referrer's credit, and the credit it spent, in the same database transaction.
  const billingRepo = createBillingRepo(db, {
    onTransition: async (transaction, event, now, trx) => {
      await referralRewards.onTransition(transaction, event, now, trx);
      await creditSpending.onTransition(transaction, event, now, trx);
    },
  });
  const periods = createPaidPeriodsRepo(db);
  // "The site changed" (settings, card settings, plans): caches of pages and public settings follow it, across instances.
  const changeSignal = createChangeSignal(broadcast);
  const paymentProviders = createPaymentProvidersRepo(db);
  const settingsRepo = createSettingsRepo(db);
  const card = signalling(createStripeSettingsService({
    providers: paymentProviders, keys, env: ctx.config.stripeKeys, publicUrl: ctx.config.publicUrl, keysChanging: () => accountDrivers.rememberInForce('card'),
  }), changeSignal);
  const stripeDrivers = ctx.stripeDrivers ?? createStripeDrivers(ctx.config.stripeApiUrl, { testClocks: ctx.config.stripeTestClocks });
  const cryptoDrivers = ctx.cryptoDrivers ?? ((store) => createBtcpayDriver(store));
  const cards = createStripeDriverSource({ card, drivers: stripeDrivers });
  const crypto = signalling(createBtcpaySettingsService({
    providers: paymentProviders, keys, publicUrl: ctx.config.publicUrl, testConnection: testBtcpayConnection,
    checkServerUrl: createPanelUrlCheck({ allowLinkLocal: ctx.config.allowLinkLocalPanels }), keysChanging: () => accountDrivers.rememberInForce('crypto'),
  }), changeSignal);
  // (Read when a payment is started or the settings are shown: `settings` is made below, from what these offer.)
  const storeCurrency = async () => (await settings.getAppSettings()).currency;
  const yookassaDrivers = ctx.yookassaDrivers ?? ((shop) => createYookassaDriver(shop, { apiUrl: ctx.config.yookassaApiUrl }));
  const yookassa = signalling(createYookassaSettingsService({
    providers: paymentProviders, keys, publicUrl: ctx.config.publicUrl, storeCurrency,
    testConnection: (shopKeys) => testYookassaConnection(shopKeys, { apiUrl: ctx.config.yookassaApiUrl }), keysChanging: () => accountDrivers.rememberInForce('yookassa'),
  }), changeSignal);
  const cryptopayDrivers = ctx.cryptopayDrivers ?? ((app) => createCryptopayDriver(app, { apiUrl: ctx.config.cryptopayApiUrl }));
  const cryptopay = signalling(createCryptopaySettingsService({
    providers: paymentProviders, keys, publicUrl: ctx.config.publicUrl, storeCurrency,
    testConnection: (appKeys) => testCryptopayConnection(appKeys, { apiUrl: ctx.config.cryptopayApiUrl }), keysChanging: () => accountDrivers.rememberInForce('cryptopay'),
  }), changeSignal);
  const providerAccountsRepo = createProviderAccountsRepo(db);
  const accountDrivers = createAccountDrivers({
    repo: providerAccountsRepo, keys, clock, log,
    sources: [
      createStripeSource({ card, drivers: stripeDrivers }), createBtcpaySource({ crypto, drivers: cryptoDrivers }),
      createYookassaSource({ yookassa, drivers: yookassaDrivers }), createCryptopaySource({ cryptopay, drivers: cryptopayDrivers }),
    ],
  });
  const payments = createPaymentDrivers({
    accounts: accountDrivers, billing: billingRepo,
    checkouts: {
      card: { publicState: async () => ({ ready: (await card.getPublicState()).ready, priority: CARD_PRIORITY }), forCheckout: () => cards.forCheckout() },
      crypto: { publicState: () => crypto.getPublicState(), forCheckout: () => crypto.forCheckout(cryptoDrivers) },
      yookassa: { publicState: (currency) => yookassa.publicState(currency), forCheckout: (currency) => yookassa.forCheckout(currency, yookassaDrivers) },
      cryptopay: { publicState: (currency) => cryptopay.publicState(currency), forCheckout: (currency) => cryptopay.forCheckout(currency, cryptopayDrivers) },
    },
  });
  const settings = createCachedSettings(createSettingsService({
    settings: settingsRepo,
    cardPublicState: () => card.getPublicState(),
    paymentMethods: (currency) => payments.availableMethods(currency),
    planExists: async (id) => (await plansRepo.findById(id)) !== undefined,
    publicUrl: ctx.config.publicUrl,
    subscriptionLinksMoved: async (host, now) => {
      await enqueueLinksMoved(jobs, host, now);
    },
  }), { signal: changeSignal, now: () => clock().getTime() });
  const servers = createServersService({
    servers: serversRepo, drivers: createDriverRegistry(ctx.driverFactory), audit, keys, clock, log,
    checkPanelUrl: createPanelUrlCheck({ allowLinkLocal: ctx.config.allowLinkLocalPanels }), onChange: () => changeSignal.changed(),
  });
  const serverHealth = createServerHealth({ db, servers: serversRepo, driverFor: (server) => servers.driverFor(server), jobs, clock, log });
  const provisioner = createProvisioner({
    accounts: accountsRepo, servers, clock, log,
    scheduleCleanup: async (payload) => {
      await jobs.enqueue(cleanupPanelUserJob(payload, clock()), clock());
    },
  });

  const commitToken = createCommitToken(db);
  const accounts = createAccountsService({
    db, accounts: accountsRepo, plans: plansRepo, users, servers, settings, provisioner, clock, log, publicUrl: ctx.config.publicUrl,
    closeOpenCheckouts: async (accountId) => {
      await checkout.closeOpenRenewals(accountId);
      await subscriptionControls.endForDeletedAccount(accountId);
    },
    userChanged: (userId) => sessionCache.forgetUser(userId), serversVersion: () => changeSignal.version(), plansVersion: () => changeSignal.version(),
    commitToken,
  });
  const notices = createBillingNotices({ jobs, clock });
  const subscription = createSubscriptionService({ db, settings, publicUrl: ctx.config.publicUrl, clock, log, settingsVersion: () => changeSignal.version() });
  // A removed device stops being admitted on every instance at once (through the broadcast; if it is down, within /sub's few-second cache).
  broadcast.subscribe(DEVICES_CHANGED_CHANNEL, (accountId) => subscription.forgetDevices(accountId));
  const devices = createDevicesService({
    repo: createDevicesRepo(db), audit, clock, devicesChanged: (accountId) => broadcast.publish(DEVICES_CHANGED_CHANNEL, accountId),
    devicelessWindowHours: async () => (await settings.getAppSettings()).devicelessWindowHours,
  });
  const panelSync = createPanelSync({
    db, repo: createPanelSyncRepo(db), accounts: accountsRepo, listServers: () => serversRepo.list(), driverFor: (server) => servers.driverFor(server),
    notices, accountChanged: (accountId) => subscription.invalidateAccount(accountId), clock, log,
  });
  const paidPeriods = createPaidPeriods({ billing: billingRepo, periods, settings, clock });
  const customers = createPaymentCustomers({ db, clock });
  const schedule = createRenewalScheduleRepo(db);
  const reconcileReads = createReconcileScheduleRepo(db);
  /** The driver a subscription is read with: the provider account that bills it. */
  const subscriptionDriver: DriverForSubscription = (subscription) => payments.forSubscription(subscription);
  const refundsRepo = createRefundsRepo(db);
  const reversals = createPaymentReversals({ billing: billingRepo, periods, accounts: accountsRepo, refunds: refundsRepo, kept: createKeptReversalsRepo(), jobs, wallet: walletLedger, clock, log });
  const recurring = createRecurringPayments({ billing: billingRepo, periods, accounts: accountsRepo, jobs, reversals, notices, clock, log });
  const savedMethods = createSavedMethodsRepo(db);
  const storeOutcomes = createStoreRenewalOutcomes({ billing: billingRepo, accounts: accountsRepo, notices, clock, log });
  const confirmation = createPaymentConfirmation({
    db, billing: billingRepo, periods, accounts: accountsRepo, jobs, recurring, reversals, notices, wallet: walletLedger, savedMethods, storeOutcomes, clock, log,
  });
  const storeRenewals = createStoreRenewals({
    db, billing: billingRepo, savedMethods, payments, users, periods, jobs, apply: (state, trx) => confirmation.applyCheckout(state, trx), clock,
  });
  const subscriptionsAdmin = createSubscriptionsAdminRepo(db);
  const subscriptionControls = createSubscriptionControls({
    db, billing: billingRepo, periods, admin: subscriptionsAdmin, payments, billingAccountOfUser: (userId) => providerAccountsRepo.billingAccountIdOfUser(userId),
    customers, recurring, savedMethods, paidPeriods, audit, clock, log, publicUrl: ctx.config.publicUrl,
  });
  const providerAccounts = createProviderAccountsService({ repo: providerAccountsRepo, drivers: accountDrivers, controls: subscriptionControls, audit, clock, log });
  const refundSender = createRefundSender({ db, billing: billingRepo, refunds: refundsRepo, payments, reversals, jobs, audit, clock, log });
  const refunds = createRefundsService({ db, billing: billingRepo, refunds: refundsRepo, sender: refundSender, payments, reversals, wallet: walletLedger, audit, clock });
  const orders = createOrderRows({ billing: billingRepo, accounts: accountsRepo, confirmation, clock });
  const promos = createPromoCodesService({ db, repo: createPromoCodesRepo(db), plans: plansRepo, settings, audit, clock });
  const referrals = createReferralsService({ db, repo: referralsRepo, rewards: referralRewards, settings, promos, audit, clock, publicUrl: ctx.config.publicUrl });
  const checkout = createCheckoutService({
    db, billing: billingRepo, accounts: accountsRepo, accountsService: accounts, plans: plansRepo, settings, payments, provisioner,
    servers, confirmation, customers, promos, referralDiscount: (userId) => referrals.discountCodeFor(userId), credit: creditSpending, referralBonusDays: (userId) => referrals.bonusDaysFor(userId), orders, jobs, clock, log, publicUrl: ctx.config.publicUrl,
  });
  const creditPush = createCreditPush({
    db, repo: referralsRepo, billing: billingRepo, customers, driverFor: (subscription) => payments.forSubscription(subscription), jobs, audit, clock, log,
  });
  const gifts = createGiftCodesService({
    db, repo: createGiftCodesRepo(db), plans: plansRepo, accounts: accountsRepo, billing: billingRepo, settings, orders, audit, clock, canProvision: (plan) => checkout.assertCanProvision(plan),
  });
  const stuckAccounts = createStuckAccountsSweep({ db, accounts: accountsRepo, servers, jobs, clock, log, stuckAfterSeconds: ctx.config.stuckAccounts.afterSeconds,
    userChanged: (userId) => sessionCache.forgetUser(userId),
  });
  /** The dedupe keys of the periodic jobs scheduleRecurringJobs queues: the purge never deletes their rows. */
  const periodicJobKeys = [SWEEP_STUCK_ACCOUNTS, ...RECURRING_PERIODIC_JOBS, PURGE_OLD_ROWS, CHECK_PANEL_HEALTH, SYNC_PANEL_ACCOUNTS, SNAPSHOT_DAILY_STATS, SWEEP_REFERRAL_CREDIT, POLL_OPEN_CHECKOUTS, SCAN_STORE_RENEWALS, SCAN_WALLET_RENEWALS];
  const retentionPurge = createRetentionPurge({ db, settings, clock, periodicJobKeys });
  const unreadableWebhooks = createUnreadableWebhooksRepo(db);
  const billing = createBillingService({ billing: billingRepo, paidPeriods, savedMethods, clock });
  const savedMethodsService = createSavedMethodsService({ db, repo: savedMethods, billing: billingRepo, recurring, audit, clock });
  const paymentWebhooks = createPaymentWebhooksService({ db, billing: billingRepo, payments, confirmation, reversals, recurring, unreadable: unreadableWebhooks, clock, log });
  const wallet = createWalletService({
    db, repo: walletLedgerRepo, ledger: walletLedger, settings, payments, users, clock,
    topUps: createTopUpCheckout({ db, billing: billingRepo, payments, accounts: accountsRepo, settings, jobs, clock, log, publicUrl: ctx.config.publicUrl }),
  });
  const revenue = createRevenueReport({ db, clock });
  const walletRenewals = createWalletRenewals({
    accounts: accountsRepo, accountsService: accounts, users, billing: billingRepo, checkout, credit: creditSpending, settings, notices, clock, log,
  });
  const overview = createOverviewService({ repo: createOverviewRepo(db), stats: createDailyStatsRepo(db), settings, clock, commitToken });
  const fulfilment = createFulfilment({
    db, billing: billingRepo, accounts: accountsRepo, provisioner, servers, paidPeriods, periods, clock, log,
    refundUndeliverable: (transactionId, why) => refunds.refundUndeliverable(transactionId, why),
  });

  return {
    broadcast,
    sessions,
    sessionCache,
    audit,
    settings,
    servers,
    serverHealth,
    panelImport: createPanelImportService({
      repo: createPanelImportRepo(db), plans: plansRepo, findServer: (id) => servers.findServerRecord(id), driverFor: (server) => servers.driverFor(server), audit, clock, log,
    }),
    auth: createAuthService({
      config: ctx.config, keys, clock, mailer: ctx.mailer, log, users, sessions, audit, settings, otp: createOtpRepo(db), signAccessToken: ctx.signAccessToken, referrals,
    }),
    users: createUsersService({ users, audit, clock, commitToken }),
    plans: createPlansService({
      plans: plansRepo, settings, audit, clock, onChange: () => changeSignal.changed(), siteVersion: () => changeSignal.version(), recurringPlanSaved: (plan) => enqueuePlanPriceSync(jobs, plan, clock()),
    }),
    changeSignal,
    crypto,
    yookassa,
    cryptopay,
    setup: createSetupChecklist({ db, settings: settingsRepo }),
    accounts,
    card,
    checkout,
    promos,
    gifts,
    referrals,
    creditPush,
    wallet,
    walletLedger,
    walletRenewals,
    revenue,
    billing,
    paymentWebhooks,
    userPage: createUserPageService({
      users, repo: createUserPageRepo(db), listAccounts: (userId) => accounts.listStoredAccounts(userId),
      listSubscriptions: (user) => billing.listSubscriptions(user), listTransactions: (userId, limit) => refunds.listTransactions({ userId, limit }),
      revokeUserSessions: (userId, reason, now) => sessions.revokeUserSessions(userId, reason, now), audit, clock,
    }),
    adminAccountActions: createAdminAccountActions({
      accounts: accountsRepo, accountsService: accounts, users, servers, audit, accountChanged: (accountId) => subscription.invalidateAccount(accountId), clock,
    }),
    subscriptionControls,
    savedMethods: savedMethodsService,
    storeRenewals,
    providerAccounts,
    refunds,
    billingRepo,
    status: createStatusService({ db, servers: serversRepo, clock }),
    desktopReleases,
    system: createSystemService({
      db, mailer: ctx.mailer, servers, jobs, settings, payments: refunds, subscriptions: subscriptionsAdmin, webhooks: unreadableWebhooks, desktopReleases, clock,
      providers: createProviderHealth({ drivers: payments, report: revenue, offered: async () => (await settings.getPublicConfig()).paymentMethods, timeoutMs: 4000 }),
    }),
    subscription,
    devices,
    panelSync,
    overview,
    jobs,
    /** What the job worker runs, by job type. */
    jobHandlers: {
      [CLEANUP_PANEL_USER]: createCleanupPanelUserHandler({ servers, accounts: accountsRepo }),
      [SWEEP_STUCK_ACCOUNTS]: createSweepStuckAccountsHandler({ sweep: stuckAccounts, clock, intervalSeconds: ctx.config.stuckAccounts.sweepIntervalSeconds }),
      [PURGE_OLD_ROWS]: createPurgeOldRowsHandler({ purge: retentionPurge, clock, log }),
      [SYNC_PANEL_ACCOUNTS]: createSyncPanelAccountsHandler({ sync: panelSync, clock }),
      [CHECK_PANEL_HEALTH]: createCheckPanelHealthHandler({ health: serverHealth, clock }),
      [SNAPSHOT_DAILY_STATS]: createSnapshotDailyStatsHandler({ overview, clock }),
      [SUBSCRIPTION_LINKS_MOVED]: createLinksMovedHandler({
        db, notices, publicUrl: ctx.config.publicUrl, subscriptionDomains: async () => (await settings.getAppSettings()).subscriptionDomains,
      }),
      [SEND_SERVER_HEALTH_EMAIL]: createSendServerHealthEmailHandler({
        servers: serversRepo, users, adminEmails: ctx.config.adminEmails, settings, mailer: ctx.mailer, jobs, publicUrl: ctx.config.publicUrl, clock,
      }),
      ...checkoutJobHandlers({ billing: billingRepo, payments, confirmation, fulfilment, clock, log }),
      ...ledgerJobHandlers({ billing: billingRepo, accounts: accountsRepo, servers, paidPeriods, notices, clock }),
      ...billingJobHandlers({ billing: billingRepo, periods, accounts: accountsRepo, plans: plansRepo, users, settings, paidPeriods, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, clock }),
      ...recurringJobHandlers({
        reconcile: { db, reads: reconcileReads, driverFor: subscriptionDriver, recurring, clock, log },
        reminders: { schedule, billing: billingRepo, periods, accounts: accountsRepo, notices, settings, clock },
        planPrices: { plans: plansRepo, settings, cards },
        deferRenewal: { db, billing: billingRepo, driverFor: subscriptionDriver, recurring, clock, log },
      }),
      ...creditPush.handlers,
      ...storeRenewals.handlers,
      ...walletRenewals.handlers,
      ...refundJobHandlers({ db, billing: billingRepo, payments, recurring, sender: refundSender, plans: plansRepo, users, settings, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl }),
    } satisfies Record<string, JobHandler>,
    /** Puts the periodic jobs in the queue (once for all instances); main.ts calls it before starting the worker. */
    scheduleRecurringJobs: async () => {
      await scheduleStuckAccountsSweep(jobs, clock());
      await scheduleRecurringPaymentJobs(jobs, clock());
      await scheduleOldRowsPurge(jobs, clock());
      await schedulePanelHealthChecks(jobs, clock());
      await schedulePanelSync(jobs, clock());
      await scheduleDailySnapshot(jobs, clock());
      await scheduleReferralCreditSweep(jobs, clock());
      await scheduleOpenCheckoutsPoll(jobs, clock());
      await scheduleStoreRenewals(jobs, clock());
      await scheduleWalletRenewals(jobs, clock());
    },
  };
}

export type Services = ReturnType<typeof createServices>;
