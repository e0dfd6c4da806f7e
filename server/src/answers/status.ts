import { z } from 'zod';
import type { RegionStatus, StatusResponse } from '../../../shared/status.js';

/** What the public status page's route answers (`GET /api/status`), checked against the shared type the service returns. Never an address. */

const ServiceStateAnswer = z.enum(['up', 'down']);

/** A panel region as the public sees it: its public name (or "Location N"), never its internal one. */
const RegionStatusAnswer = z.object({
  name: z.string(),
  locationNumber: z.number().int().nullable(),
  nameTranslations: z.object({ ru: z.string().optional(), fa: z.string().optional(), 'zh-CN': z.string().optional() }),
  locations: z.string(),
  status: ServiceStateAnswer,
}) satisfies z.ZodType<RegionStatus>;

/** `GET /api/status`: the site, the database and each region, and when they were checked. */
export const StatusAnswer = z.object({
  site: ServiceStateAnswer,
  database: ServiceStateAnswer,
  regions: z.array(RegionStatusAnswer),
  checkedAt: z.string(),
}) satisfies z.ZodType<StatusResponse>;
