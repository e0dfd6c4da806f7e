import type { Db } from '../../db/knex.js';
import { parseJson, toJson } from '../../db/values.js';

export interface AuditEntry {
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  ip?: string | null;
  now: Date;
}

/** Who did what: sign-ins, role changes and other admin actions. */
export function createAuditRepo(db: Db) {
  return {
    async record(entry: AuditEntry, trx: Db = db): Promise<void> {
      await trx('audit_log').insert({
        actor_id: entry.actorId,
        actor_email: entry.actorEmail,
        action: entry.action,
        target_type: entry.targetType ?? null,
        target_id: entry.targetId ?? null,
        details: toJson(entry.details ?? {}),
        ip: entry.ip ?? null,
        created_at: entry.now,
      });
    },

    /** Whether `action` on `targetId` was recorded with this value in its details (e.g. one refund id). */
    async hasEntry(action: string, targetId: string, detail: { key: string; value: string }, trx: Db = db): Promise<boolean> {
      const rows: Array<{ details: unknown }> = await trx('audit_log').select('details').where({ action, target_id: targetId });
      return rows.some((row) => parseJson<Record<string, unknown>>(row.details, {})[detail.key] === detail.value);
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
