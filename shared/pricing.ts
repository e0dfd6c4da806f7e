/**
 * The static prices and feature matrix shown on the pricing page. These are marketing facts, not
 * the plans a customer can buy (those come from `GET /api/plans`); nothing here charges anyone.
 */

export const BILLING_PERIODS = ['2-year', '1-year', '1-month'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export interface BillingPeriodInfo {
  months: number;
  /** The toggle's label, e.g. "2 years". */
  label: string;
  /** How often the total is charged, e.g. "every 2 years". */
  interval: string;
}

export const BILLING_PERIOD_INFO: Record<BillingPeriod, BillingPeriodInfo> = {
  '2-year': { months: 24, label: '2 years', interval: 'every 2 years' },
  '1-year': { months: 12, label: '1 year', interval: 'every year' },
  '1-month': { months: 1, label: '1 month', interval: 'every month' },
};

/** The period the pricing toggle starts on. */
export const DEFAULT_BILLING_PERIOD: BillingPeriod = '2-year';

export const TIER_IDS = ['basic', 'plus', 'complete'] as const;
export type TierId = (typeof TIER_IDS)[number];

export interface PricingTier {
  id: TierId;
  name: string;
  summary: string;
  /** The price per month, in cents, for each billing period. */
  perMonthCents: Record<BillingPeriod, number>;
}

export const PRICING_TIERS: Record<TierId, PricingTier> = {
  basic: {
    id: 'basic',
    name: 'Basic',
    summary: 'A fast, private VPN for everyday browsing.',
    perMonthCents: { '2-year': 399, '1-year': 599, '1-month': 1299 },
  },
  plus: {
    id: 'plus',
    name: 'Plus',
    summary: 'The VPN plus protection from malicious sites and trackers.',
    perMonthCents: { '2-year': 499, '1-year': 699, '1-month': 1399 },
  },
  complete: {
    id: 'complete',
    name: 'Complete',
    summary: 'Everything we offer, for your whole digital life.',
    perMonthCents: { '2-year': 599, '1-year': 799, '1-month': 1499 },
  },
};

/** The order the pricing page shows the tier cards in. */
export const TIER_DISPLAY_ORDER: readonly TierId[] = ['complete', 'plus', 'basic'];

/** The tier with the 'Most Popular' badge. */
export const MOST_POPULAR_TIER: TierId = 'plus';

export interface PlanFeature {
  id: string;
  label: string;
  /** The tiers that include this feature. */
  includedIn: readonly TierId[];
}

const PLUS_AND_UP: readonly TierId[] = ['plus', 'complete'];
const COMPLETE_ONLY: readonly TierId[] = ['complete'];

export const PLAN_FEATURES: readonly PlanFeature[] = [
  { id: 'high-speed-vpn', label: 'High-speed VPN', includedIn: TIER_IDS },
  { id: 'threat-protection', label: 'Threat protection', includedIn: PLUS_AND_UP },
  { id: 'ten-devices', label: 'Protection on 10 devices', includedIn: PLUS_AND_UP },
  { id: 'anti-malware', label: 'Anti-malware', includedIn: COMPLETE_ONLY },
  { id: 'browsing-protection', label: 'Browsing protection', includedIn: COMPLETE_ONLY },
  { id: 'ad-blocker', label: 'Ad blocker', includedIn: COMPLETE_ONLY },
  { id: 'password-manager', label: 'Password management', includedIn: COMPLETE_ONLY },
  { id: 'breach-scanner', label: 'Data breach scanner', includedIn: COMPLETE_ONLY },
  { id: 'cloud-storage', label: '1 TB cloud storage', includedIn: COMPLETE_ONLY },
];

export function perMonthCents(tier: TierId, period: BillingPeriod): number {
  return PRICING_TIERS[tier].perMonthCents[period];
}

/** What the customer pays at the start of each period: the monthly figure times the months. */
export function billedTotalCents(tier: TierId, period: BillingPeriod): number {
  return perMonthCents(tier, period) * BILLING_PERIOD_INFO[period].months;
}

/** The 'Save N%' figure: the discount per month against paying month by month (0 for 1-month). */
export function savePercent(tier: TierId, period: BillingPeriod): number {
  const monthly = perMonthCents(tier, '1-month');
  return Math.round((1 - perMonthCents(tier, period) / monthly) * 100);
}

export function tierIncludes(tier: TierId, feature: PlanFeature): boolean {
  return feature.includedIn.includes(tier);
}

/** Whole cents as US dollars with two decimals, e.g. 1299 → "$12.99". */
export function formatUsd(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`Expected a non-negative whole number of cents, got ${cents}`);
  }
  const dollars = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `$${dollars.toLocaleString('en-US')}.${rest}`;
}
