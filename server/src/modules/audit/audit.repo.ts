import type { Db } from '../../db/knex.js';
import { toJson } from '../../db/values.js';

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
    async record(entry: AuditEntry): Promise<void> {
      await db('audit_log').insert({
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
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
