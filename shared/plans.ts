import { z } from 'zod';
import { LocationsSchema } from './servers.js';

export const PLAN_STATUSES = ['active', 'disabled'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** `GET /api/plans`: active plans, cheapest first. Money in cents, data in bytes, days may be fractional. */
export interface Plan {
  id: string;
  name: string;
  days: number;
  dataLimitBytes: number;
  locations: string;
  price: number;
  isTrial: boolean;
}

export interface AdminPlan extends Plan {
  status: PlanStatus;
  createdAt: string;
  updatedAt: string;
}

/** The admin plan form's defaults (spec section 9); hours mode starts at 3 hours and 300 MB. */
export const PLAN_DEFAULTS = { days: 30, dataLimitGb: 50, price: 0, status: 'active' } as const;
export const HOURS_MODE_DEFAULTS = { days: 0.125, dataLimitMb: 300 } as const;

export const PlanBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(120),
  /** Days; under 1 means hours (0.125 = 3 hours). */
  days: z.number({ error: 'Duration is required' }).positive('Duration must be more than 0').max(3650),
  dataLimitBytes: z.number({ error: 'Data limit is required' }).int().min(1024 * 1024, 'Data limit must be at least 1 MB').max(1024 ** 5),
  locations: LocationsSchema.default('all'),
  price: z.number({ error: 'Price is required' }).int('Price is in whole cents').min(0).max(10_000_000),
  status: z.enum(PLAN_STATUSES).default('active'),
  isTrial: z.boolean().default(false),
});
export type PlanBody = z.infer<typeof PlanBody>;
export const UpdatePlanBody = PlanBody.partial().strict();
export type UpdatePlanBody = z.infer<typeof UpdatePlanBody>;
