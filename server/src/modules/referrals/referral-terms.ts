import { randomInt } from 'node:crypto';
import { REFERRAL_DEFAULTS, type ReferralSettings, type ReferralTerms } from '../../../../shared/referrals.js';
import { DAY_MS } from '../../../../shared/constants.js';

/** Link codes: no look-alike letters or digits (0/O, 1/I/L), so a code read aloud or copied by hand still works. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The stored settings over the defaults (a field missing from an older save keeps its default). */
export function settingsOf(stored: Partial<ReferralSettings>): ReferralSettings {
  return { ...REFERRAL_DEFAULTS, ...stored };
}

export const termsOf = ({ enabled: _enabled, ...terms }: ReferralSettings): ReferralTerms => terms;

/** When a reward earned at `paidAt` becomes available: after the refund window. */
export const maturesAt = (terms: ReferralTerms, paidAt: Date) => new Date(paidAt.getTime() + terms.refundWindowDays * DAY_MS);

/** Whole calendar months after `from`, as Stripe counts a subscription's months (the same day of a later month). */
function addMonths(from: Date, months: number): Date {
  const to = new Date(from);
  to.setUTCMonth(to.getUTCMonth() + months);
  return to;
}

/**
 * What the referrer earns on one payment of the customer they referred (minor units; 0 for nothing):
 * a percentage of what was charged while the payment falls in the months after the first payment, or the fixed
 * amount on the first payment only. `firstPaidAt` is the first payment's time (this one's when it is the first).
 */
export function rewardFor(
  terms: ReferralTerms,
  payment: { amount: number; currency: string; paidAt: Date; first: boolean; firstPaidAt: Date },
): { amount: number; currency: string } {
  const { reward } = terms;
  if (payment.amount <= 0) return { amount: 0, currency: payment.currency };
  if (reward.kind === 'fixed') return payment.first ? { amount: reward.amount, currency: reward.currency } : { amount: 0, currency: reward.currency };
  if (payment.paidAt.getTime() >= addMonths(payment.firstPaidAt, reward.months).getTime()) return { amount: 0, currency: payment.currency };
  return { amount: Math.floor((payment.amount * reward.percent) / 100), currency: payment.currency };
}

/** Whether two sign-ins came from one address within a day of each other. */
export function signedInTogether(a: Array<{ ip: string; at: Date }>, b: Array<{ ip: string; at: Date }>): boolean {
  return a.some((x) => b.some((y) => x.ip === y.ip && Math.abs(x.at.getTime() - y.at.getTime()) < DAY_MS));
}
