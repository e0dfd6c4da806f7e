import { z } from 'zod';
import { PLAN_BILLINGS, PLAN_STATUSES, TRAFFIC_RESETS, type AdminPlan, type Plan } from '../../../shared/plans.js';
import { TRANSLATED_LOCALES, type PlanTranslation } from '../../../shared/plan-translations.js';

/**
 * What the plan routes answer: the public list (`GET /api/plans`, sent as prepared JSON: its schema is for the
 * document) and the admin's plans, checked against the shared types. Prices are integer minor units of the store's
 * currency, data in bytes; days may be fractional (under 1: hours). Times are ISO strings.
 */

/** A plan's texts in one other language, each falling back to English where left out. */
const PlanTranslationAnswer = z.object({
  name: z.string().optional(),
  tier: z.string().optional(),
  features: z.array(z.string()).optional(),
}) satisfies z.ZodType<PlanTranslation>;

/** A plan as customers see it (`Plan`). */
export const PlanAnswer = z.object({
  id: z.string(),
  name: z.string(),
  days: z.number(),
  dataLimitBytes: z.number().int(),
  locations: z.string(),
  /** The location codes its accounts can use (e.g. ["DE", "NL"]); empty: everywhere. */
  locationCodes: z.array(z.string()),
  price: z.number().int(),
  isTrial: z.boolean(),
  tier: z.string().nullable(),
  features: z.array(z.string()),
  mostPopular: z.boolean(),
  sortOrder: z.number().int(),
  public: z.boolean(),
  billing: z.enum(PLAN_BILLINGS),
  /** null = unlimited. */
  deviceLimit: z.number().int().nullable(),
  /** Whole Telegram Stars; null = not sold for Stars. */
  starsPrice: z.number().int().nullable(),
  /** Only the languages the operator translated. */
  translations: z.partialRecord(z.enum(TRANSLATED_LOCALES), PlanTranslationAnswer),
  /** `monthly`: the data limit is each month's, reset every month of the paid period. */
  trafficReset: z.enum(TRAFFIC_RESETS),
  /** Unused data carries over to the next month or period. */
  trafficCarryOver: z.boolean(),
  /** Days it keeps running after its paid end when nothing renews it. */
  graceDays: z.number().int(),
  /** Data allowed during the grace; null = the limit stays. */
  graceDataBytes: z.number().int().nullable(),
}) satisfies z.ZodType<Plan>;

/** `GET /api/plans`: active plans in display order. */
export const PlanListAnswer = z.array(PlanAnswer);

/** A plan as the admin sees it: with its status and times. */
export const AdminPlanAnswer = PlanAnswer.extend({
  status: z.enum(PLAN_STATUSES),
  /** The servers its accounts may use, with their squads or groups there (null: the server's own); empty: any that covers its locations. */
  servers: z.array(z.object({ serverId: z.string(), serviceId: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<AdminPlan>;

/** `GET /api/admin/plans`. */
export const AdminPlanListAnswer = z.array(AdminPlanAnswer);
