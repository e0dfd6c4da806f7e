import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { createDb, type Db } from './db/knex.js';
import { resolveAppSecret } from './lib/app-secret.js';
import { systemClock, type Clock } from './lib/clock.js';
import { deriveKeys } from './lib/crypto.js';
import { SERVER_BUNDLE_FILE, SITE_DIST_DIR, WEB_DIST_DIR } from './lib/package-info.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { desktopUpdatesRoutes } from './modules/desktop-releases/desktop-updates.routes.js';
import { adminSettingsRoutes, publicConfigRoutes } from './modules/settings/settings.routes.js';
import { healthRoutes } from './modules/system/health.routes.js';
import { statusRoutes } from './modules/system/status.routes.js';
import { adminServersRoutes } from './modules/servers/servers.routes.js';
import { adminPanelImportRoutes } from './modules/panel-import/panel-import.routes.js';
import { accountsRoutes, adminAccountsRoutes } from './modules/accounts/accounts.routes.js';
import { adminAccountActionsRoutes } from './modules/accounts/admin-account-actions.routes.js';
import { adminPlansRoutes, publicPlansRoutes } from './modules/plans/plans.routes.js';
import { adminPromoCodesRoutes } from './modules/promo-codes/promo-codes.routes.js';
import { adminGiftCodesRoutes } from './modules/gift-codes/gift-codes.routes.js';
import { adminReferralsRoutes, myReferralsRoutes, referralLinkRoutes } from './modules/referrals/referrals.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { paymentWebhookRoutes } from './modules/billing/webhooks/payment-webhooks.routes.js';
import { adminWalletRoutes, walletRoutes } from './modules/wallet/wallet.routes.js';
import { adminSubscriptionsRoutes } from './modules/billing/recurring/subscriptions-admin.routes.js';
import { adminStripeSettingsRoutes } from './modules/billing/provider-accounts/stripe-settings.routes.js';
import { adminProviderAccountsRoutes } from './modules/billing/provider-accounts/provider-accounts.routes.js';
import { adminBtcpaySettingsRoutes } from './modules/billing/provider-accounts/btcpay-settings.routes.js';
import { adminProviderSettingsRoutes } from './modules/billing/provider-accounts/provider-settings.routes.js';
import type { StripeDriverFactory } from './payments/stripe/stripe-driver.js';
import { adminTransactionsRoutes } from './modules/billing/refunds/refunds.routes.js';
import { adminSystemRoutes } from './modules/system/system.routes.js';
import { adminSetupRoutes } from './modules/setup/setup.routes.js';
import { subscriptionRoutes } from './modules/subscription/subscription.routes.js';
import { accountDevicesRoutes, adminAccountDevicesRoutes } from './modules/devices/devices.routes.js';
import type { DriverFactory } from './panels/driver-registry.js';
import { createServices, type Services } from './services.js';
import { createJobWorker, type JobWorker } from './jobs/worker.js';
import { adminUsersRoutes, meRoutes } from './modules/users/users.routes.js';
import { adminOverviewRoutes } from './modules/overview/overview.routes.js';
import { authPlugin } from './plugins/auth.js';
import { compressAnswersPlugin } from './plugins/compress-answers.js';
import { errorsPlugin } from './plugins/errors.js';
import { nulCharactersPlugin } from './plugins/nul-characters.js';
import { DEFAULT_RATE_LIMITS, rateLimitPlugin, type RateLimits } from './plugins/rate-limit.js';
import { securityPlugin } from './plugins/security.js';
import { staticSitePlugin } from './plugins/static-site.js';

export interface AppOptions {
  config: Config;
  /** An open database (already migrated). Without one, the app opens config.databaseUrl and closes it. */
  db?: Db;
  clock?: Clock;
  mailer?: Mailer;
  rateLimits?: Partial<RateLimits>;
  logger?: FastifyServerOptions['logger'];
  /** Where the built site is (tests point these at fixtures). */
  webDir?: string;
  siteDir?: string;
  serverBundle?: string;
  /** How drivers for panel servers are made (tests may shorten timeouts). */
  driverFactory?: DriverFactory;
  /** How Stripe is reached (default: the real SDK at STRIPE_API_URL). */
  stripeDrivers?: StripeDriverFactory;
  /** Told of every route as it is registered (tests walk them). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job worker: started by main.ts after listening, stopped when the app closes. */
    jobWorker: JobWorker;
    /** The app's services, for scripts that seed or inspect it (the demo, benchmarks). */
    services: Services;
  }
}

/** JSON bodies on the API are small; an oversized one is refused before it is read. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Builds the whole application without listening: main.ts listens, tests call `inject()`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
  });

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  const db = options.db ?? createDb(config.databaseUrl);
  if (!options.db) app.addHook('onClose', async () => db.destroy());
  const clock = options.clock ?? systemClock;
  const keys = deriveKeys(resolveAppSecret(config));
  const mailer = options.mailer ?? createMailer(config, app.log);
  app.addHook('onClose', async () => mailer.close());

  // Tokens are signed with @fastify/jwt, registered by the auth plugin below, before any request.
  const services = createServices({
    config, db, clock, keys, mailer, log: app.log, driverFactory: options.driverFactory, stripeDrivers: options.stripeDrivers,
    signAccessToken: (claims) => app.jwt.sign({ sid: claims.sid }, { sub: claims.sub }),
  });
  const { settings } = services;
  const jobWorker = createJobWorker({ repo: services.jobs, clock, log: app.log, handlers: services.jobHandlers, concurrency: config.jobConcurrency, lockTimeoutSeconds: config.jobLeaseSeconds });
  app.decorate('jobWorker', jobWorker);
  app.decorate('services', services);
  app.addHook('onClose', async () => jobWorker.stop());
  app.addHook('onClose', async () => services.broadcast.close());

  await app.register(errorsPlugin);
  await app.register(nulCharactersPlugin);
  // Answers made per request are compressed as they are sent; pages, plans and built assets are sent precompressed.
  await app.register(compressAnswersPlugin);
  await app.register(authPlugin, { jwtSecret: keys.jwt, secureCookies: config.publicUrl.protocol === 'https:', sessions: services.sessions, clock });
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(rateLimitPlugin, { redisUrl: config.redisUrl });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  await app.register(healthRoutes, { db });
  await app.register(publicConfigRoutes, { settings });
  await app.register(statusRoutes, { status: services.status });
  await app.register(publicPlansRoutes, { plans: services.plans });
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  await app.register(subscriptionRoutes, { service: services.subscription, limitPerIp: limits.subPerIp });
  await app.register(authRoutes, { auth: services.auth, limits, secureCookies: config.publicUrl.protocol === 'https:' });
  await app.register(meRoutes, { users: services.users });
  await app.register(accountsRoutes, { accounts: services.accounts });
  await app.register(accountDevicesRoutes, { devices: services.devices });
  await app.register(billingRoutes, { checkout: services.checkout, billing: services.billing, controls: services.subscriptionControls, savedMethods: services.savedMethods, gifts: services.gifts, checkoutLimit: limits.checkoutPerUser });
  await app.register(paymentWebhookRoutes, { webhooks: services.paymentWebhooks });
  await app.register(walletRoutes, { wallet: services.wallet, renewals: services.walletRenewals, checkoutLimit: limits.checkoutPerUser });
  await app.register(adminWalletRoutes, { wallet: services.wallet });
  await app.register(adminOverviewRoutes, { overview: services.overview });
  await app.register(adminUsersRoutes, { users: services.users, userPage: services.userPage });
  await app.register(adminAccountActionsRoutes, { actions: services.adminAccountActions });
  await app.register(adminAccountDevicesRoutes, { devices: services.devices });
  await app.register(adminServersRoutes, { servers: services.servers });
  await app.register(adminPanelImportRoutes, { panelImport: services.panelImport });
  await app.register(adminPlansRoutes, { plans: services.plans });
  await app.register(adminPromoCodesRoutes, { promos: services.promos });
  await app.register(adminGiftCodesRoutes, { gifts: services.gifts });
  await app.register(adminReferralsRoutes, { referrals: services.referrals });
  await app.register(myReferralsRoutes, { referrals: services.referrals });
  await app.register(referralLinkRoutes, { referrals: services.referrals, secureCookies: config.publicUrl.protocol === 'https:' });
  await app.register(adminSettingsRoutes, { settings, audit: services.audit, clock });
  await app.register(adminStripeSettingsRoutes, { card: services.card, audit: services.audit, clock });
  await app.register(adminBtcpaySettingsRoutes, { crypto: services.crypto, audit: services.audit, clock });
  await app.register(adminProviderSettingsRoutes, { yookassa: services.yookassa, cryptopay: services.cryptopay, audit: services.audit, clock });
  await app.register(adminTransactionsRoutes, { refunds: services.refunds, revenue: services.revenue });
  await app.register(adminSubscriptionsRoutes, { controls: services.subscriptionControls });
  await app.register(adminProviderAccountsRoutes, { accounts: services.providerAccounts });
  await app.register(adminAccountsRoutes, { accounts: services.accounts });
  await app.register(adminSystemRoutes, { system: services.system });
  await app.register(desktopUpdatesRoutes, { dir: config.desktopUpdatesDir, feeds: services.desktopReleases });
  await app.register(adminSetupRoutes, { setup: services.setup });
  await app.register(staticSitePlugin, {
    webDir: options.webDir ?? WEB_DIST_DIR,
    siteDir: options.siteDir ?? SITE_DIST_DIR,
    publicUrl: config.publicUrl,
    getPublicConfig: () => settings.getPublicConfig(),
    serverBundle: options.serverBundle ?? SERVER_BUNDLE_FILE,
    plans: { version: () => services.plans.catalogVersion() + services.changeSignal.version(), list: () => services.plans.listPricingPlans(), currency: async () => (await services.settings.getAppSettings()).currency },
    clock,
  });

  return app;
}
