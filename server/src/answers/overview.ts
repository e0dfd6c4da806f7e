import { z } from 'zod';
import { OVERVIEW_RANGES, type AdminOverview, type OverviewServerTraffic } from '../../../shared/overview.js';

/**
 * What the admin's overview answers (`GET /api/admin/overview`), for the OpenAPI document: the route sends JSON
 * it keeps ready (kept-json.ts), which the serializer does not see. Checked against the shared type the service
 * builds it from. Money is integer minor units of `currency`; bytes are the panels' figures as they are.
 */

const Int = z.number().int();

/** One server's traffic per day of the range. */
const OverviewServerTrafficAnswer = z.object({
  serverId: z.string(),
  name: z.string(),
  bytes: z.array(z.number()),
}) satisfies z.ZodType<OverviewServerTraffic>;

/** One value per UTC day of the range, oldest first (each series as long as `dates`), and the shop's totals. */
export const AdminOverviewAnswer = z.object({
  days: z.literal(OVERVIEW_RANGES),
  dates: z.array(z.string()),
  signups: z.array(Int),
  trials: z.array(Int),
  revenue: z.array(Int),
  discounts: z.array(Int),
  currency: z.string(),
  otherCurrencies: z.array(z.object({ currency: z.string(), revenue: Int })),
  activeAccounts: z.array(Int.nullable()),
  traffic: z.array(OverviewServerTrafficAnswer),
  referrals: z.object({ signedUp: Int, paid: Int }),
  totals: z.object({
    users: Int,
    activeAccounts: Int,
    revenue: Int,
    discounts: Int,
    signups: Int,
    trials: Int,
    trafficBytes: z.number(),
  }),
}) satisfies z.ZodType<AdminOverview>;
