import type { FastifyRequest } from 'fastify';
import { VERIFIES_PER_CODE, type SignInLimits } from '../../../../shared/sign-in-limits.js';
import { networkKeyOf } from '../../lib/network-key.js';
import type { ChangingLimitRule, RateLimits } from '../../plugins/rate-limit.js';

/** The rate limits of sign-in codes: the admin's settings once saved, else the app's (DEFAULT_RATE_LIMITS, or a test's). */
export function signInLimitRules(limits: RateLimits, saved: () => Promise<SignInLimits | null>) {
  const rule = (fallback: RateLimits[keyof RateLimits], pick: (set: SignInLimits) => number): ChangingLimitRule => ({
    max: async () => {
      const set = await saved();
      return set ? pick(set) : fallback.max;
    },
    windowSeconds: fallback.windowSeconds,
  });
  return {
    /** Codes asked for one e-mail address, from anywhere. */
    otpPerEmail: rule(limits.otpPerEmail, (set) => set.codesPerEmail),
    /** Codes asked from one network, for any addresses: a ceiling, as a carrier's shared address is many customers. */
    otpPerNetwork: rule(limits.otpPerIp, (set) => set.codesPerNetwork),
    /** Codes checked from one network: a mistyped code is tried again, so a few checks per code. */
    verifyPerNetwork: rule(limits.verifyPerIp, (set) => set.codesPerNetwork * VERIFIES_PER_CODE),
  };
}

/** The key of the network limits: an IPv4 address, an IPv6 /64. */
export const byNetwork = (request: FastifyRequest): string => networkKeyOf(request.ip);
