import { z } from 'zod';
import type { SetupChecklist, SetupStep } from '../../../shared/setup.js';

/** What the admin's setup checklist answers (`GET /api/admin/setup`), checked against the shared type the service returns. */

/** One thing to do, and the admin tab where it is done. */
const SetupStepAnswer = z.object({
  id: z.enum(['brand', 'supportEmail', 'server', 'plan', 'payment', 'trial']),
  label: z.string(),
  tab: z.enum(['settings', 'servers', 'plans', 'payments']),
  section: z.enum(['general', 'payments']).optional(),
  done: z.boolean(),
}) satisfies z.ZodType<SetupStep>;

/** `GET /api/admin/setup`: every step, and whether all are done. */
export const SetupChecklistAnswer = z.object({
  steps: z.array(SetupStepAnswer),
  complete: z.boolean(),
}) satisfies z.ZodType<SetupChecklist>;
