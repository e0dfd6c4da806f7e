import { AUDIT_EXPORT_MAX_ROWS, type AuditFilterQuery, type AuditListQuery, type AuditLogPage } from '../../../../shared/audit.js';
import type { Clock } from '../../lib/clock.js';
import { toAuditCsv } from './audit-csv.js';
import type { AuditFilter, AuditRepo } from './audit.repo.js';

const DAY_MS = 24 * 3600_000;
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `from`: that day's start (UTC) or that time; `to`: the end of that day, or that time. */
function dateRange(query: AuditFilterQuery): Pick<AuditFilter, 'from' | 'to'> {
  const to = query.to ? new Date(DAY_ONLY.test(query.to) ? Date.parse(`${query.to}T00:00:00Z`) + DAY_MS : Date.parse(query.to)) : undefined;
  return { from: query.from ? new Date(query.from.length === 10 ? `${query.from}T00:00:00Z` : query.from) : undefined, to };
}

/** The Audit section: the audit log filtered and paged, newest first, and the same filters as a CSV file. */
export function createAuditService(deps: { audit: AuditRepo; users: { findByEmail(email: string): Promise<{ id: string } | undefined> }; clock: Clock }) {
  /** The filters as the repository takes them; null when they name a customer that does not exist (nothing matches). */
  async function resolve(query: AuditFilterQuery): Promise<AuditFilter | null> {
    let userId: string | undefined;
    if (query.customer) {
      userId = query.customer.includes('@') ? (await deps.users.findByEmail(query.customer.toLowerCase()))?.id : query.customer;
      if (!userId) return null;
    }
    return { actorEmail: query.actor || undefined, actionPrefix: query.action || undefined, userId, ...dateRange(query) };
  }

  return {
    async list(query: AuditListQuery): Promise<AuditLogPage> {
      const filter = await resolve(query);
      if (!filter) return { entries: [], nextCursor: null };
      const rows = await deps.audit.list({ ...filter, before: query.before }, query.limit + 1);
      const entries = rows.slice(0, query.limit);
      return { entries, nextCursor: rows.length > query.limit ? entries[entries.length - 1]!.id : null };
    },

    /** At most AUDIT_EXPORT_MAX_ROWS entries, newest first, named by the day it was made. */
    async exportCsv(query: AuditFilterQuery): Promise<{ filename: string; csv: string }> {
      const filter = await resolve(query);
      const entries = filter ? await deps.audit.list(filter, AUDIT_EXPORT_MAX_ROWS) : [];
      return { filename: `audit-${deps.clock().toISOString().slice(0, 10)}.csv`, csv: toAuditCsv(entries) };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
