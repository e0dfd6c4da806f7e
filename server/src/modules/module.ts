import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import type { DomainEvents } from '../domain-events.js';
import type { JobHandler } from '../jobs/worker.js';
import type { Clock } from '../lib/clock.js';
import type { Keys } from '../lib/crypto.js';
import type { EventBus, Listeners } from '../lib/event-bus.js';
import type { Mailer } from '../mail/mailer.js';
import type { CryptopayDriverFactory } from './billing/provider-accounts/cryptopay-source.js';
import type { BtcpayDriverFactory } from './billing/provider-accounts/payment-drivers.js';
import type { YookassaDriverFactory } from './billing/provider-accounts/yookassa-source.js';
import type { StripeDriverFactory } from '../payments/stripe/stripe-driver.js';
import type { DriverFactory } from '../panels/driver-registry.js';
import type { RateLimits } from '../plugins/rate-limit.js';

/** What every module may use: the app's configuration and its connections to the world. */
export interface Core {
  config: Config;
  db: Db;
  clock: Clock;
  keys: Keys;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The in-memory bus modules tell each other what happened on (domain-events.ts). */
  events: EventBus<DomainEvents>;
  /** Requests allowed per client, for the routes that limit them. */
  limits: RateLimits;
  /** Whether cookies are set `Secure` (the site is served over https). */
  secureCookies: boolean;
  /** How drivers for panel servers are made (tests may shorten timeouts). */
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
  /**
   * Every module's periodic job types (their dedupe keys): filled in once every module is built, so read it in
   * `jobs`, `routes` or `listeners`, not in `build`.
   */
  periodicJobs: readonly string[];
}

/** A Fastify plugin with the options it is registered with. */
export interface Route {
  plugin: (app: FastifyInstance, options: never) => Promise<void>;
  options: unknown;
}

/** A route plugin and its options, checked against each other. */
export function route<Options>(plugin: (app: FastifyInstance, options: Options) => Promise<void>, options: Options): Route {
  return { plugin: plugin, options };
}

/**
 * One module of the server: what it builds from what (`build`'s argument names every service it uses, and the
 * module list checks they are built before it), the routes it serves, the jobs it handles, which of them run
 * periodically (one row for all instances, put in the queue at start; each must have a handler here), and the
 * events it listens to. Routes, handlers and listeners are read once every module is built.
 */
export interface ServerModule<Needs, Provides extends object> {
  readonly name: string;
  readonly build: (deps: Needs) => Provides;
  readonly routes?: (deps: Needs & Provides) => readonly Route[];
  readonly jobs?: (deps: Needs & Provides) => Record<string, JobHandler>;
  /** Job types (each a handler in `jobs`) that run periodically: their handlers say when they run again. */
  readonly periodicJobs?: readonly string[];
  readonly listeners?: (deps: Needs & Provides) => Listeners<DomainEvents>;
}

/** Declares a module (the types of its parts are inferred from `build`). */
export function defineModule<Needs, Provides extends object>(module: ServerModule<Needs, Provides>): ServerModule<Needs, Provides> {
  return module;
}

/** What a module builds (the services it adds for the modules after it). */
export type Provided<M> = M extends ServerModule<never, infer Provides> ? Provides : never;
