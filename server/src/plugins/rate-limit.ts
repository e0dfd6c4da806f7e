import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { rateLimited } from '../errors.js';
import type { RateLimitCounters } from '../lib/rate-limit-counters.js';
import { SIGN_IN_LIMIT_DEFAULTS, SIGN_IN_LIMITS, VERIFIES_PER_CODE } from '../../../shared/sign-in-limits.js';

export interface LimitRule {
  max: number;
  windowSeconds: number;
}

/** A rule whose most is read at each request (a setting the admin may change, e.g. the sign-in limits). */
export interface ChangingLimitRule {
  max: () => Promise<number>;
  windowSeconds: number;
}

/** Request limits per route and key. Defaults suit one person; tests and operators may change them. */
export interface RateLimits {
  otpPerIp: LimitRule;
  otpPerEmail: LimitRule;
  verifyPerIp: LimitRule;
  verifyPerEmail: LimitRule;
  refreshPerIp: LimitRule;
  /** Each checkout reserves an account and opens a Stripe session: a person needs only a few. */
  checkoutPerUser: LimitRule;
  /** `/sub/…`: VPN clients refresh every few hours; many devices behind one address still fit. */
  subPerIp: LimitRule;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  // Per network (an IPv4 address, an IPv6 /64): loose, as a carrier's shared address (CGNAT) is many customers.
  otpPerIp: { max: SIGN_IN_LIMIT_DEFAULTS.codesPerNetwork, windowSeconds: SIGN_IN_LIMITS.codesPerNetwork.windowSeconds },
  otpPerEmail: { max: SIGN_IN_LIMIT_DEFAULTS.codesPerEmail, windowSeconds: SIGN_IN_LIMITS.codesPerEmail.windowSeconds },
  verifyPerIp: { max: SIGN_IN_LIMIT_DEFAULTS.codesPerNetwork * VERIFIES_PER_CODE, windowSeconds: 15 * 60 },
  verifyPerEmail: { max: 15, windowSeconds: 15 * 60 },
  refreshPerIp: { max: 120, windowSeconds: 60 },
  checkoutPerUser: { max: 10, windowSeconds: 15 * 60 },
  subPerIp: { max: 120, windowSeconds: 60 },
};

declare module 'fastify' {
  interface FastifyInstance {
    /** A hook (a route's preValidation, before its input is checked) that answers 429 once `rule` is exceeded for the key `keyOf(request)` under `name`. */
    limiter(name: string, rule: LimitRule | ChangingLimitRule, keyOf: (request: FastifyRequest) => string): (request: FastifyRequest) => Promise<void>;
  }
}

/** The per-user limit checkout, plan changes and gift-code redemptions share. */
export const CHECKOUT_LIMIT = 'checkout-user';

/** The hooks `app.limiter` made: the OpenAPI document says a route holding one may answer 429. */
const LIMITER_HOOKS = new WeakSet<(request: FastifyRequest) => Promise<void>>();

/** Whether a route hook is a rate limit of `app.limiter`. */
export const isLimiterHook = (hook: unknown): boolean => typeof hook === 'function' && LIMITER_HOOKS.has(hook as (request: FastifyRequest) => Promise<void>);

/**
 * Counters live in memory by default, or in Redis (REDIS_URL) so several app instances share them. While Redis
 * cannot be reached they are kept in this process (lib/rate-limit-counters.ts): the limits still hold, per
 * instance, and no request waits for Redis; the admin's System tab says so.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { counters: RateLimitCounters }) => {
    await opts.counters.connected();
    app.addHook('onClose', async () => opts.counters.close());
    await app.register(rateLimit, { global: false, store: opts.counters.Store, skipOnError: true });

    // One counter per limit name, wherever its routes are registered (in memory as in Redis).
    const checks = new Map<string, ReturnType<typeof app.createRateLimit>>();
    app.decorate('limiter', (name: string, rule: LimitRule | ChangingLimitRule, keyOf: (request: FastifyRequest) => string) => {
      const check =
        checks.get(name) ??
        app.createRateLimit({
          max: rule.max,
          timeWindow: rule.windowSeconds * 1000,
          keyGenerator: (request) => `${name}:${keyOf(request)}`,
        });
      checks.set(name, check);
      const hook = async (request: FastifyRequest) => {
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) throw rateLimited(Math.max(1, result.ttlInSeconds));
      };
      LIMITER_HOOKS.add(hook);
      return hook;
    });
  },
  { name: 'rate-limit' },
);
