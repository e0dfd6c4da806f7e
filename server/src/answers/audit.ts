import { z } from 'zod';
import type { AuditLogEntry, AuditLogPage } from '../../../shared/audit.js';

/**
 * What the Audit section's routes answer: one page of the audit log (`GET /api/admin/audit`), checked against the
 * shared type the service returns. The export (`GET /api/admin/audit/export`) answers CSV text.
 */

/** One entry: who (actor), what (action), on what (target, and the customer it is about), with what changed. */
export const AuditLogEntryAnswer = z.object({
  id: z.number().int(),
  action: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  userId: z.string().nullable().describe('The customer the entry is about, if any'),
  details: z
    .record(z.string(), z.unknown())
    .describe('What the action recorded: staff changes have `before` and `after` (secrets only as "changed"); sign-ins `device`'),
  ip: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<AuditLogEntry>;

/** `GET /api/admin/audit`: newest first; `nextCursor` is the next page's `before`. */
export const AuditLogPageAnswer = z.object({
  entries: z.array(AuditLogEntryAnswer),
  nextCursor: z.number().int().nullable(),
}) satisfies z.ZodType<AuditLogPage>;

/** `GET /api/admin/audit/export`: the entries as CSV (an attachment). */
export const AuditCsvAnswer = z.string().describe('text/csv: id, time, actor, action, target, customer, IP, details (JSON)');
