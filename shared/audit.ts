import { z } from 'zod';

/** Page size of the admin's Audit section: the default, and the most one request may ask for. */
export const AUDIT_PAGE = { default: 50, max: 200 } as const;
/** The most rows one CSV export holds (narrow the filters for more). */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, 'A date (YYYY-MM-DD) or an ISO time');

/**
 * The Audit section's filters (`GET /api/admin/audit`, and its CSV export): the staff member's address, an action
 * prefix (`admin.plans` finds every plan change), the customer the entries are about (their id or address), and a
 * date range (`to` a day: to the end of that day, UTC).
 */
export const AuditFilterQuery = z.object({
  actor: z.string().trim().toLowerCase().max(254).optional(),
  action: z
    .string()
    .trim()
    .max(64)
    .regex(/^[a-z0-9_.-]*$/i, 'Letters, digits, dots, dashes and underscores')
    .optional(),
  customer: z.string().trim().max(254).optional(),
  from: Day.optional(),
  to: Day.optional(),
});
export type AuditFilterQuery = z.infer<typeof AuditFilterQuery>;

/** One page: newest first, `before` the `nextCursor` of the page before. */
export const AuditListQuery = AuditFilterQuery.extend({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE.max).default(AUDIT_PAGE.default),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

/** One entry of the audit log as the Audit section shows it. */
export interface AuditLogEntry {
  id: number;
  action: string;
  actorId: string | null;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  /** The customer the entry is about, if any. */
  userId: string | null;
  /** What the action recorded; staff changes have `before` and `after` (secrets only as "changed"). */
  details: Record<string, unknown>;
  ip: string | null;
  createdAt: string;
}

export interface AuditLogPage {
  entries: AuditLogEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: number | null;
}
