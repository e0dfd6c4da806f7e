import { z } from 'zod';
import type { AdminSettings, SiteContentTranslations } from '../../../shared/app-settings.js';
import { PAYMENT_METHODS } from '../../../shared/billing-schemas.js';
import type { PublicConfig } from '../../../shared/config.js';
import { DEVICELESS_CLIENT_POLICIES } from '../../../shared/devices.js';
import { LOCALES } from '../../../shared/locales.js';
import { PLAN_CHANGE_DOWNGRADES } from '../../../shared/plan-changes.js';
import { TRANSLATED_LOCALES } from '../../../shared/plan-translations.js';
import type { SubscriptionHeaderSettings } from '../../../shared/subscription-headers.js';
import type { SubscriptionDomain } from '../../../shared/subscription-domains.js';

/**
 * What the settings routes answer: the public config every screen reads (`GET /api/config`, sent as JSON kept ready,
 * so described here for the OpenAPI document only) and the admin's settings (`GET/PUT /api/admin/settings`), each
 * checked against the shared type the service returns. Amounts are integer minor units of the store's currency.
 */

const Int = z.number().int();

/** The operator's site content in the other languages; a language with nothing of its own is left out. */
const SiteContentTranslationsAnswer = z.partialRecord(
  z.enum(TRANSLATED_LOCALES),
  z.object({ locationsClaim: z.string().optional() }),
) satisfies z.ZodType<SiteContentTranslations>;

/** `GET /api/config`: the public settings every screen may read. */
export const PublicConfigAnswer = z.object({
  brandName: z.string(),
  supportEmail: z.string(),
  locationsClaim: z.string(),
  protectionFeatures: z.boolean(),
  trialOffered: z.boolean(),
  cardPaymentsEnabled: z.boolean(),
  paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
  stripePublishableKey: z.string().nullable(),
  currency: z.string(),
  siteContentTranslations: SiteContentTranslationsAnswer,
}) satisfies z.ZodType<PublicConfig>;

/** The headers VPN apps act on, as the operator set them. */
const SubscriptionHeadersAnswer = z.object({
  announce: z.partialRecord(z.enum(LOCALES), z.string()),
  routing: z.string().nullable(),
  happProviderId: z.string().nullable(),
  hideSettings: z.boolean(),
  updateIntervalHours: Int,
}) satisfies z.ZodType<SubscriptionHeaderSettings>;

/** A spare public domain for subscription links. */
const SubscriptionDomainAnswer = z.object({ domain: z.string(), blocked: z.boolean() }) satisfies z.ZodType<SubscriptionDomain>;

/** `GET /api/admin/settings`, and `PUT` (the settings as saved). */
export const AdminSettingsAnswer = z.object({
  trialPlanId: z.string().nullable(),
  trialPromise: z.boolean(),
  brandName: z.string(),
  supportEmail: z.string(),
  supportEmailSet: z.boolean(),
  locationsClaim: z.string(),
  protectionFeatures: z.boolean(),
  renewalGraceDays: Int,
  renewalReminders: z.boolean(),
  planChangeDowngrade: z.enum(PLAN_CHANGE_DOWNGRADES),
  retentionDays: Int,
  auditRetentionDays: Int,
  devicelessClients: z.enum(DEVICELESS_CLIENT_POLICIES),
  devicelessWindowHours: Int,
  currency: z.string(),
  siteContentTranslations: SiteContentTranslationsAnswer,
  walletTopUps: z.object({ enabled: z.boolean(), min: Int, max: Int }),
  subscriptionHeaders: SubscriptionHeadersAnswer,
  subscriptionDomains: z.array(SubscriptionDomainAnswer),
  staffPasskeysRequired: z.boolean(),
  refundStepUpAbove: Int,
  signInLimits: z.object({ codesPerEmail: Int, codesPerNetwork: Int }).nullable(),
}) satisfies z.ZodType<AdminSettings>;
