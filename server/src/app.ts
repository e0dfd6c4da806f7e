import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { createDb, type Db } from './db/knex.js';
import { resolveAppSecret } from './lib/app-secret.js';
import { systemClock, type Clock } from './lib/clock.js';
import { deriveKeys } from './lib/crypto.js';
import { safeLoggerOptions } from './lib/logger-options.js';
import { registerRequestLogs, requestScopedLogger } from './lib/request-log.js';
import { SERVER_BUNDLE_FILE, SITE_DIST_DIR, WEB_DIST_DIR } from './lib/package-info.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import type { StripeDriverFactory } from './payments/stripe/stripe-driver.js';
import type { DriverFactory } from './panels/driver-registry.js';
import { createServices, type Services } from './services.js';
import { createJobWorker, type JobWorker } from './jobs/worker.js';
import { authPlugin } from './plugins/auth.js';
import { adminAuditPlugin } from './modules/audit/index.js';
import { compressAnswersPlugin } from './plugins/compress-answers.js';
import { errorsPlugin } from './plugins/errors.js';
import { nulCharactersPlugin } from './plugins/nul-characters.js';
import { openApiPlugin } from './plugins/openapi.js';
import { DEFAULT_RATE_LIMITS, rateLimitPlugin, type RateLimits } from './plugins/rate-limit.js';
import { securityPlugin } from './plugins/security.js';
import { staffPasskeyPlugin } from './plugins/staff-passkey.js';
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
  // No secret in any log line (lib/logger-options.ts); a test's logger options (a stream to read) join these.
  const logging = options.logger === false ? { logger: false } : safeLoggerOptions(config.logLevel, typeof options.logger === 'object' ? options.logger : {});
  const app = Fastify({
    ...logging,
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
  // What services log while serving a request carries the request's reqId (lib/request-log.ts).
  registerRequestLogs(app);
  const log = requestScopedLogger(app.log);
  const mailer = options.mailer ?? createMailer(config, log);
  app.addHook('onClose', async () => mailer.close());

  // Tokens are signed with @fastify/jwt, registered by the auth plugin below, before any request.
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const services = createServices({
    config,
    db,
    clock,
    keys,
    mailer,
    log,
    limits,
    driverFactory: options.driverFactory,
    stripeDrivers: options.stripeDrivers,
    signAccessToken: (claims) => app.jwt.sign({ sid: claims.sid }, { sub: claims.sub }),
  });
  const { settings } = services;
  const jobWorker = createJobWorker({
    repo: services.jobs,
    clock,
    log: app.log,
    handlers: services.jobHandlers,
    concurrency: config.jobConcurrency,
    lockTimeoutSeconds: config.jobLeaseSeconds,
  });
  app.decorate('jobWorker', jobWorker);
  app.decorate('services', services);
  app.addHook('onClose', async () => jobWorker.stop());
  app.addHook('onClose', async () => services.broadcast.close());

  await app.register(errorsPlugin);
  // Before any route: it describes each one as it is registered.
  await app.register(openApiPlugin, { publicUrl: config.publicUrl, strictAnswers: config.env === 'test' });
  await app.register(nulCharactersPlugin);
  // Answers made per request are compressed as they are sent; pages, plans and built assets are sent precompressed.
  await app.register(compressAnswersPlugin);
  await app.register(authPlugin, { jwtSecret: keys.jwt, secureCookies: config.publicUrl.protocol === 'https:', sessions: services.sessions, clock });
  // Every staff change is audited: a service's own entry, or a generic one with the masked request body.
  await app.register(adminAuditPlugin, { audit: services.audit, clock });
  // Staff prove their passkey before the admin opens (after the auth plugin, before any route).
  await app.register(staffPasskeyPlugin, { gate: services.passkeyGate });
  await app.register(securityPlugin, { publicUrl: config.publicUrl });
  await app.register(rateLimitPlugin, { counters: services.rateLimitCounters });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  // Every module's routes (their manifests say which), then the site for every other path.
  for (const route of services.routes) await app.register(route.plugin, route.options as never);
  await app.register(staticSitePlugin, {
    webDir: options.webDir ?? WEB_DIST_DIR,
    siteDir: options.siteDir ?? SITE_DIST_DIR,
    publicUrl: config.publicUrl,
    getPublicConfig: () => settings.getPublicConfig(),
    serverBundle: options.serverBundle ?? SERVER_BUNDLE_FILE,
    plans: {
      version: () => services.plans.catalogVersion() + services.changeSignal.version(),
      list: () => services.plans.listPricingPlans(),
      currency: async () => (await services.settings.getAppSettings()).currency,
    },
    clock,
  });

  return app;
}
