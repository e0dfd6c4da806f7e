import { z } from 'zod';

/**
 * How many sign-in codes may be asked for (the admin's Settings, `signInLimits`). A code is limited per e-mail
 * address (what keeps one inbox from being flooded and one account from being guessed at) and, far more
 * loosely, per network: one IPv4 address, or one IPv6 /64 (what a home or a phone is given). A carrier puts
 * thousands of customers behind one IPv4 address (CGNAT), so the network ceiling only stops one machine
 * asking codes for many addresses; see docs/rate-limits.md.
 */
export interface SignInLimits {
  /** Codes one e-mail address may be sent per hour. */
  codesPerEmail: number;
  /** Codes one network (IPv4 address, IPv6 /64) may ask for, for any addresses, per 15 minutes. */
  codesPerNetwork: number;
}

export const SIGN_IN_LIMITS = {
  codesPerEmail: { default: 6, min: 1, max: 100, windowSeconds: 60 * 60 },
  codesPerNetwork: { default: 300, min: 10, max: 100_000, windowSeconds: 15 * 60 },
} as const;

export const SIGN_IN_LIMIT_DEFAULTS: SignInLimits = {
  codesPerEmail: SIGN_IN_LIMITS.codesPerEmail.default,
  codesPerNetwork: SIGN_IN_LIMITS.codesPerNetwork.default,
};

/** Code checks a network may make per code it may ask for (a mistyped code is tried again). */
export const VERIFIES_PER_CODE = 2;

const limit = (what: string, rule: { min: number; max: number }) =>
  z
    .number({ error: `${what} is a whole number` })
    .int(`${what} is a whole number`)
    .min(rule.min, `${what}: at least ${rule.min}`)
    .max(rule.max, `${what}: at most ${rule.max}`);

/** `signInLimits` in `PUT /api/admin/settings`: both numbers. */
export const SignInLimitsSchema = z
  .object({
    codesPerEmail: limit('Codes per e-mail address', SIGN_IN_LIMITS.codesPerEmail),
    codesPerNetwork: limit('Codes per network address', SIGN_IN_LIMITS.codesPerNetwork),
  })
  .strict();
