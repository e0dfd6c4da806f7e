import { z } from 'zod';
import { perLanguage } from './translations-schema.js';
import { isSupportedCurrency } from './currencies.js';
import type { TranslatedLocale } from './plan-translations.js';
import { DEVICELESS_CLIENT_POLICIES, DEVICELESS_WINDOW, type DevicelessClientPolicy } from './devices.js';
import { SubscriptionHeaderSettingsSchema, type SubscriptionHeaderSettings } from './subscription-headers.js';
import { SubscriptionDomainsSchema, type SubscriptionDomain } from './subscription-domains.js';
import { PLAN_CHANGE_DOWNGRADES, type PlanChangeDowngrade } from './plan-changes.js';
import { SignInLimitsSchema, type SignInLimits } from './sign-in-limits.js';

/** `GET/PUT /api/admin/settings`. */
export interface AdminSettings {
  trialPlanId: string | null;
  /** Whether the public pages promise the free trial (while a trial plan is on sale); off: they never mention one. */
  trialPromise: boolean;
  brandName: string;
  supportEmail: string;
  /** False until the operator saves a support address (the site shows `support@<host>` until then). */
  supportEmailSet: boolean;
  /** The number of locations the site claims, e.g. "50+" or "12". */
  locationsClaim: string;
  /** Whether the site advertises threat protection and ad blocking. */
  protectionFeatures: boolean;
  /** Days a past_due subscription's account keeps working after its paid period before it is paused. */
  renewalGraceDays: number;
  /** E-mail customers 3 days before a renewal charge (and before a one-off plan ends). */
  renewalReminders: boolean;
  /** What a customer's plan change to a cheaper plan does: the rest of its credit into their wallet now, or the switch at the paid end (shared/plan-changes.ts). */
  planChangeDowngrade: PlanChangeDowngrade;
  /** Days kept after they stop being used: sign-in codes, sessions and refresh tokens, finished jobs, webhook ids, provisioning logs. */
  retentionDays: number;
  /** Days the audit log is kept. */
  auditRetentionDays: number;
  /**
   * What a VPN client that sends no device id (`x-hwid`) gets on an account whose plan limits devices:
   * `allow` (the default) serves it without counting it; `refuse` gives it a placeholder entry instead; `count`
   * counts it as a device, known by its app (User-Agent name and version) and the address it fetches from.
   */
  devicelessClients: DevicelessClientPolicy;
  /** With `count`: how long such an app keeps its slot after it was last seen, hours (DEVICELESS_WINDOW). */
  devicelessWindowHours: number;
  /**
   * What the store sells in: a lower-case ISO code from shared/currencies.ts ('usd' until changed). Plan
   * prices are minor units of it; a payment keeps the currency it was made in.
   */
  currency: string;
  /** The site content in the other languages, each field falling back to English (shared/config.ts `siteContentFor`). */
  siteContentTranslations: SiteContentTranslations;
  /**
   * Customers topping up their balance (wallet): on or off, and the least and most at once in minor units of the
   * store's currency (5 and 1,000 of its major unit until set; set limits follow the currency they were set in).
   */
  walletTopUps: { enabled: boolean; min: number; max: number };
  /** The headers VPN apps act on (shared/subscription-headers.ts); a save changes the fields it sends. */
  subscriptionHeaders: SubscriptionHeaderSettings;
  /** Spare public domains for subscription links (shared/subscription-domains.ts); replaced whole when sent. */
  subscriptionDomains: SubscriptionDomain[];
  /** Every staff member must register a passkey and prove it after the e-mailed code before the admin opens. */
  staffPasskeysRequired: boolean;
  /**
   * A refund of more than this (minor units of the store's currency) asks the staff member for their passkey again;
   * 0 = never. A refund of a payment in another currency always asks, while this is set.
   */
  refundStepUpAbove: number;
  /** How many sign-in codes an e-mail address and a network may ask for (shared/sign-in-limits.ts); null: never saved, the defaults. */
  signInLimits: SignInLimits | null;
}

/** What the operator writes on the public pages, in one other language; a field left out shows the English one. */
export interface SiteContentTranslation {
  locationsClaim?: string;
}
export type SiteContentTranslations = Partial<Record<TranslatedLocale, SiteContentTranslation>>;

export const DEVICELESS_CLIENTS_DEFAULT: DevicelessClientPolicy = 'allow';

export const RENEWAL_DEFAULTS = { graceDays: 3, reminders: true, maxGraceDays: 30 } as const;

/**
 * How long rows that are no longer used are kept before the daily purge deletes them. Processed
 * webhook ids and finished jobs are kept at least `minGateDays` whatever `retentionDays` says: they
 * are what stops a redelivered payment event or a repeated e-mail from being handled twice.
 */
export const RETENTION_DEFAULTS = {
  days: 30,
  minDays: 1,
  maxDays: 3650,
  auditDays: 365,
  minAuditDays: 30,
  maxAuditDays: 3650,
  minGateDays: 30,
} as const;

const wholeDays = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} is a number of days` })
    .int(`${what} is a whole number of days`)
    .min(min, `${what}: at least ${min} day${min === 1 ? '' : 's'}`)
    .max(max, `${what}: at most ${max} days`);

/** How many locations the site claims: a number, optionally followed by +. */
const LocationsClaimSchema = z
  .string({ error: 'Say how many locations, e.g. 50+ or 12' })
  .trim()
  .min(1, 'Say how many locations, e.g. 50+ or 12')
  .max(12, 'At most 12 characters, e.g. 50+')
  .regex(/^[0-9][0-9,.+ ]*$/, 'A number, optionally followed by +, e.g. 50+ or 12');

/** One language's site content: each field optional, empty counting as not given (the English one shows). */
const SiteContentTranslationSchema = z
  .object(
    {
      locationsClaim: z
        .string({ error: 'Say how many locations, e.g. 50+ or 12' })
        .trim()
        .pipe(z.union([z.literal(''), LocationsClaimSchema]))
        .optional(),
    },
    { error: 'A language\'s site content is an object, e.g. { "locationsClaim": "50+" }' },
  )
  .strict()
  .transform(({ locationsClaim }): SiteContentTranslation => (locationsClaim ? { locationsClaim } : {}));

/** `siteContentTranslations`: Russian, Persian and Chinese site content; the whole object is replaced when sent. */
const SiteContentTranslationsSchema = perLanguage(SiteContentTranslationSchema, 'Site content translations are an object of languages (ru, fa, zh-CN)');

export const UpdateSettingsBody = z
  .object({
    trialPlanId: z.string().trim().min(1).max(64).nullable(),
    trialPromise: z.boolean({ error: 'Promise the free trial: true or false' }),
    brandName: z.string().trim().min(1, 'Brand name is required').max(60),
    supportEmail: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email({ error: 'Enter a valid email address' })),
    renewalGraceDays: z
      .number({ error: 'Grace period is a number of days' })
      .int('Grace period is a whole number of days')
      .min(0, 'Grace period cannot be negative')
      .max(RENEWAL_DEFAULTS.maxGraceDays, `Grace period: at most ${RENEWAL_DEFAULTS.maxGraceDays} days`),
    renewalReminders: z.boolean(),
    planChangeDowngrade: z.enum(PLAN_CHANGE_DOWNGRADES, { error: 'A downgrade: "wallet" or "period_end"' }),
    locationsClaim: LocationsClaimSchema,
    protectionFeatures: z.boolean(),
    retentionDays: wholeDays('Retention', RETENTION_DEFAULTS.minDays, RETENTION_DEFAULTS.maxDays),
    auditRetentionDays: wholeDays('Audit log retention', RETENTION_DEFAULTS.minAuditDays, RETENTION_DEFAULTS.maxAuditDays),
    devicelessClients: z.enum(DEVICELESS_CLIENT_POLICIES, { error: 'Clients without a device id: allow, refuse or count' }),
    devicelessWindowHours: z
      .number({ error: 'The window is a number of hours' })
      .int('The window is a whole number of hours')
      .min(DEVICELESS_WINDOW.minHours, `The window: at least ${DEVICELESS_WINDOW.minHours} hour`)
      .max(DEVICELESS_WINDOW.maxHours, `The window: at most ${DEVICELESS_WINDOW.maxHours} hours`),
    siteContentTranslations: SiteContentTranslationsSchema,
    walletTopUps: z
      .object({
        enabled: z.boolean(),
        min: z
          .number({ error: 'The least top-up is an amount in minor units' })
          .int('The least top-up: whole minor units')
          .min(1, 'The least top-up: more than 0'),
        max: z
          .number({ error: 'The most a top-up may be is an amount in minor units' })
          .int('The most a top-up may be: whole minor units')
          .max(100_000_000, 'The most a top-up may be is too large'),
      })
      .strict()
      .refine((limits) => limits.min <= limits.max, { error: 'The least top-up cannot be more than the most', path: ['max'] }),
    subscriptionHeaders: SubscriptionHeaderSettingsSchema,
    subscriptionDomains: SubscriptionDomainsSchema,
    staffPasskeysRequired: z.boolean({ error: 'Passkeys required: true or false' }),
    refundStepUpAbove: z
      .number({ error: 'The refund amount is in minor units (0 = never ask)' })
      .int('The refund amount: whole minor units')
      .min(0, 'The refund amount cannot be negative')
      .max(1_000_000_000_000, 'The refund amount is too large'),
    signInLimits: SignInLimitsSchema.nullable(),
    currency: z
      .string({ error: 'Currency is a three-letter ISO code, e.g. eur' })
      .trim()
      .toLowerCase()
      .refine(isSupportedCurrency, { error: 'Not a currency Stripe supports: give its three-letter ISO code, e.g. usd, eur or jpy' }),
  })
  .partial()
  .strict();
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;
