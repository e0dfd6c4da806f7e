import { z } from 'zod';
import { perLanguage } from './translations-schema.js';
import { DEVICE_LIMIT_MAX } from './devices.js';
import type { PlanTranslation, PlanTranslations } from './plan-translations.js';
import { PlanServersSchema, type PlanServer } from './plan-servers.js';
import { LocationsSchema } from './servers.js';

export const PLAN_STATUSES = ['active', 'disabled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const PLAN_BILLINGS = ['one_off', 'recurring'] as const;
/** `one_off`: paid once for its period; `recurring`: charged again every period until cancelled (see plan-billing.ts). */
export type PlanBilling = (typeof PLAN_BILLINGS)[number];

/** `none`: the data limit lasts the whole paid period; `monthly`: it starts again every month of it (plans of more than a month only). */
export const TRAFFIC_RESETS = ['none', 'monthly'] as const;
export type TrafficReset = (typeof TRAFFIC_RESETS)[number];

/**
 * `GET /api/plans`: active plans in display order. Money in cents, data in bytes, days may be
 * fractional. The last five fields are what the pricing page shows (see shared/pricing.ts).
 */
export interface Plan {
  id: string;
  name: string;
  days: number;
  dataLimitBytes: number;
  locations: string;
  /** The location codes its accounts can use (the servers it lists, else its own codes), e.g. ["DE", "NL"]; empty: everywhere. */
  locationCodes: string[];
  price: number;
  isTrial: boolean;
  /** The pricing page shows plans with the same tier name as one card with a period toggle; null: a tier of its own. */
  tier: string | null;
  /** Lines under the price, e.g. "250 GB of data every month". */
  features: string[];
  /** The card carries a 'Most Popular' badge. */
  mostPopular: boolean;
  /** Smaller first: the order of tiers on the pricing page and of plans on the dashboard. */
  sortOrder: number;
  /** Listed on the public pages (pricing, landing). A trial never is, whatever this says. */
  public: boolean;
  billing: PlanBilling;
  /** How many devices (VPN clients that send a device id) one account of this plan may use; null = unlimited. */
  deviceLimit: number | null;
  /** Telegram Stars the bot sells it for (whole Stars, at most 10,000, Telegram's cap); null: not sold for Stars. */
  starsPrice: number | null;
  /** The name, tier and features in the other languages (shared/plan-translations.ts `planText` picks one). */
  translations: PlanTranslations;
  /** `monthly`: the data limit is each month's, and the store resets the used data every month of the paid period. */
  trafficReset: TrafficReset;
  /** Unused data of the month (at a monthly reset) or of the period (at a renewal) is added to the next allowance. */
  trafficCarryOver: boolean;
  /** Days the account keeps running after its paid end when nothing renews it (0–30). */
  graceDays: number;
  /** Data allowed during those days (the panel limit becomes what was used plus this at the paid end); null: the limit stays as it was. */
  graceDataBytes: number | null;
}

export interface AdminPlan extends Plan {
  status: PlanStatus;
  /** The servers its accounts may use and their squads or groups there (shared/plan-servers.ts); empty: any that covers `locations`. */
  servers: PlanServer[];
  createdAt: string;
  updatedAt: string;
}

/** The admin plan form's defaults (spec section 9); hours mode starts at 3 hours and 300 MB. */
export const PLAN_DEFAULTS = { days: 30, dataLimitGb: 50, price: 0, status: 'active' } as const;
export const HOURS_MODE_DEFAULTS = { days: 0.125, dataLimitMb: 300 } as const;

/** Bounds of the pricing-page fields (the columns are sized to them). */
export const PLAN_PRICING_LIMITS = { tierLength: 40, featureLength: 120, features: 12, sortOrderMax: 100_000 } as const;

/** The most Telegram lets a bot ask for one payment in Stars. */
export const STARS_PRICE_MAX = 10_000;

/** Bounds of the traffic rules: a monthly reset needs a plan longer than a month; grace up to 30 days, its data at least 1 MB. */
export const PLAN_TRAFFIC_LIMITS = { monthlyResetMinDays: 31, graceDaysMax: 30, graceDataMinBytes: 1024 * 1024 } as const;

/** The words of the traffic rules' refusals, the same from the server and the admin form. */
export const PLAN_TRAFFIC_MESSAGES = {
  monthlyNeedsLongPlan: 'A monthly data reset needs a plan of more than 31 days.',
  graceDataNeedsDays: 'Data during the grace period needs at least one grace day.',
} as const;

/**
 * What is wrong with a plan's traffic rules taken together, per field (the schema checks each alone): a monthly reset
 * only for plans of more than 31 days, and grace data only with grace days. Empty when they are fine.
 */
export function trafficRulesProblems(
  plan: Pick<Plan, 'days' | 'trafficReset' | 'graceDays' | 'graceDataBytes'>,
): Partial<Record<'trafficReset' | 'graceDataBytes', string>> {
  const problems: Partial<Record<'trafficReset' | 'graceDataBytes', string>> = {};
  if (plan.trafficReset === 'monthly' && !(plan.days > PLAN_TRAFFIC_LIMITS.monthlyResetMinDays))
    problems.trafficReset = PLAN_TRAFFIC_MESSAGES.monthlyNeedsLongPlan;
  if (plan.graceDataBytes !== null && plan.graceDays < 1) problems.graceDataBytes = PLAN_TRAFFIC_MESSAGES.graceDataNeedsDays;
  return problems;
}

const TierSchema = z
  .string()
  .trim()
  .max(PLAN_PRICING_LIMITS.tierLength, `Tier name: at most ${PLAN_PRICING_LIMITS.tierLength} characters`)
  .nullable()
  .transform((value) => value || null);

const FeaturesSchema = z
  .array(
    z
      .string({ error: 'A feature line is text' })
      .trim()
      .min(1, 'A feature line cannot be empty')
      .max(PLAN_PRICING_LIMITS.featureLength, `A feature line has at most ${PLAN_PRICING_LIMITS.featureLength} characters`),
    { error: 'Features are a list of lines' },
  )
  .max(PLAN_PRICING_LIMITS.features, `At most ${PLAN_PRICING_LIMITS.features} feature lines`);

/** One language's texts of a plan: any of them, each falling back to English (empty counts as not given, and is left out). */
const PlanTranslationSchema = z
  .object(
    {
      name: z.string({ error: 'A translated name is text' }).trim().max(120, 'Name: at most 120 characters').optional(),
      tier: z
        .string({ error: 'A translated tier is text' })
        .trim()
        .max(PLAN_PRICING_LIMITS.tierLength, `Tier name: at most ${PLAN_PRICING_LIMITS.tierLength} characters`)
        .optional(),
      features: FeaturesSchema.optional(),
    },
    { error: "A language's texts are an object of name, tier and features" },
  )
  .strict()
  .transform(({ name, tier, features }): PlanTranslation => ({
    ...(name ? { name } : {}),
    ...(tier ? { tier } : {}),
    ...(features && features.length > 0 ? { features } : {}),
  }));

/** `translations`: Russian, Persian and Chinese texts, each optional; the whole object is replaced when sent. A language with nothing in it is left out. */
const TranslationsSchema = perLanguage(PlanTranslationSchema, 'Translations are an object of languages (ru, fa, zh-CN)');

/** Each field as sent; the create body adds defaults, the update body takes any of them and nothing else. */
const planFields = {
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(120),
  /** Days; under 1 means hours (0.125 = 3 hours). */
  days: z.number({ error: 'Duration is required' }).positive('Duration must be more than 0').max(3650),
  dataLimitBytes: z
    .number({ error: 'Data limit is required' })
    .int()
    .min(1024 * 1024, 'Data limit must be at least 1 MB')
    .max(1024 ** 5),
  locations: LocationsSchema,
  price: z
    .number({ error: 'Price is required' })
    .int("Price is a whole number of the store currency's minor units (cents, or whole yen)")
    .min(0)
    .max(10_000_000),
  status: z.enum(PLAN_STATUSES),
  isTrial: z.boolean(),
  tier: TierSchema,
  features: FeaturesSchema,
  mostPopular: z.boolean(),
  sortOrder: z
    .number({ error: 'Display order is a number' })
    .int('Display order is a whole number')
    .min(-PLAN_PRICING_LIMITS.sortOrderMax)
    .max(PLAN_PRICING_LIMITS.sortOrderMax),
  public: z.boolean(),
  billing: z.enum(PLAN_BILLINGS, { error: 'Billing is one_off or recurring' }),
  deviceLimit: z
    .number({ error: 'Device limit is a number' })
    .int('Device limit is a whole number')
    .min(1, 'Device limit: at least 1 (leave it empty for unlimited)')
    .max(DEVICE_LIMIT_MAX, `Device limit: at most ${DEVICE_LIMIT_MAX}`)
    .nullable(),
  /** Whole Telegram Stars; null: the bot does not sell the plan for Stars. */
  starsPrice: z
    .number({ error: 'Stars price is a number' })
    .int('Stars price is a whole number of Stars')
    .min(1, 'Stars price: at least 1 (leave it empty not to sell it for Stars)')
    .max(STARS_PRICE_MAX, "Stars price: at most 10,000 (Telegram's limit)")
    .nullable(),
  translations: TranslationsSchema,
  trafficReset: z.enum(TRAFFIC_RESETS, { error: 'Data reset is none or monthly' }),
  trafficCarryOver: z.boolean({ error: 'Carry-over is true or false' }),
  graceDays: z
    .number({ error: 'Grace days is a number' })
    .int('Grace days is a whole number')
    .min(0, 'Grace days: at least 0')
    .max(PLAN_TRAFFIC_LIMITS.graceDaysMax, `Grace days: at most ${PLAN_TRAFFIC_LIMITS.graceDaysMax}`),
  /** Bytes; null: no data limit of its own during the grace. */
  graceDataBytes: z
    .number({ error: 'Grace data is a number' })
    .int('Grace data is a whole number of bytes')
    .min(PLAN_TRAFFIC_LIMITS.graceDataMinBytes, 'Grace data must be at least 1 MB (leave it empty to keep the limit)')
    .max(1024 ** 5)
    .nullable(),
  servers: PlanServersSchema,
};

export const PlanBody = z.object({
  ...planFields,
  locations: planFields.locations.default('all'),
  status: planFields.status.default('active'),
  isTrial: planFields.isTrial.default(false),
  tier: planFields.tier.default(null),
  features: planFields.features.default([]),
  mostPopular: planFields.mostPopular.default(false),
  sortOrder: planFields.sortOrder.default(0),
  public: planFields.public.default(true),
  /** One-off when omitted, so existing callers keep working. */
  billing: planFields.billing.default('one_off'),
  deviceLimit: planFields.deviceLimit.default(null),
  starsPrice: planFields.starsPrice.default(null),
  translations: planFields.translations.default({}),
  /** Existing callers get a plan as before: one allowance per period, nothing carried over, no grace. */
  trafficReset: planFields.trafficReset.default('none'),
  trafficCarryOver: planFields.trafficCarryOver.default(false),
  graceDays: planFields.graceDays.default(0),
  graceDataBytes: planFields.graceDataBytes.default(null),
  /** None listed: any server that covers `locations` and is not premium, with its own squads or groups. */
  servers: planFields.servers.default([]),
});
export type PlanBody = z.infer<typeof PlanBody>;
/** A change: only the fields sent are changed (no defaults fill the others in). */
export const UpdatePlanBody = z.object(planFields).partial().strict();
export type UpdatePlanBody = z.infer<typeof UpdatePlanBody>;
