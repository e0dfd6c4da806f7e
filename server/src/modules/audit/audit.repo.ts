import type { Knex } from 'knex';
import type { AuditLogEntry } from '../../../../shared/audit.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toDate, toJson } from '../../db/values.js';
import { currentAuditContext, maskSecrets } from './audit-context.js';

export interface AuditEntry {
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  /** The customer the entry is about; by default the target when it is a user, else the `userId` of the details. */
  userId?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
  now: Date;
}

/** The Audit section's filters, resolved: a customer is their id (and their accounts' ids). */
export interface AuditFilter {
  actorEmail?: string;
  actionPrefix?: string;
  userId?: string;
  from?: Date;
  to?: Date;
  before?: number;
}

const ACTION_LENGTH = 64;
const ID_LENGTH = 36;

function subjectOf(entry: AuditEntry): string | null {
  if (entry.userId !== undefined) return entry.userId;
  if (entry.targetType === 'user' && entry.targetId) return entry.targetId;
  const fromDetails = entry.details?.userId;
  return typeof fromDetails === 'string' ? fromDetails : null;
}

/**
 * What an entry keeps of its details: all of them with their secrets masked (an API key, a password, a token is only
 * "changed"); written during a staff request, it marks the request recorded and, when it does not say what changed,
 * gets the request's route and masked body as `after`.
 */
function detailsOf(entry: AuditEntry): Record<string, unknown> {
  const details = maskSecrets(entry.details ?? {}) as Record<string, unknown>;
  const context = currentAuditContext();
  if (!context) return details;
  context.recorded = true;
  if (!('after' in details) && context.after !== undefined) return { ...details, route: context.route, after: context.after };
  return details;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function toEntry(row: Record<string, unknown>): AuditLogEntry {
  const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);
  return {
    id: Number(row.id),
    action: String(row.action),
    actorId: text(row.actor_id),
    actorEmail: text(row.actor_email),
    targetType: text(row.target_type),
    targetId: text(row.target_id),
    userId: text(row.user_id),
    details: parseJson<Record<string, unknown>>(row.details, {}),
    ip: text(row.ip),
    createdAt: toDate(row.created_at).toISOString(),
  };
}

/** Who did what: sign-ins, role changes, staff actions with what they changed, refunds, devices removed. */
export function createAuditRepo(db: Db) {
  /** Entries about a customer: their own, the ones naming them, and the ones on one of their VPN accounts. */
  function aboutUser(query: Knex.QueryBuilder, userId: string): Knex.QueryBuilder {
    return query.where((about) =>
      about
        .where('user_id', userId)
        .orWhere('actor_id', userId)
        .orWhereIn('target_id', (accounts) => accounts.select('id').from('vpn_accounts').where('user_id', userId)),
    );
  }

  function filtered(filter: AuditFilter): Knex.QueryBuilder {
    const query = db('audit_log').select('id', 'action', 'actor_id', 'actor_email', 'target_type', 'target_id', 'user_id', 'details', 'ip', 'created_at');
    if (filter.actorEmail) query.where('actor_email', filter.actorEmail);
    if (filter.actionPrefix) query.whereRaw("action like ? escape '\\'", [`${escapeLike(filter.actionPrefix)}%`]);
    if (filter.userId) aboutUser(query, filter.userId);
    if (filter.from) query.where('created_at', '>=', filter.from);
    if (filter.to) query.where('created_at', '<', filter.to);
    if (filter.before) query.where('id', '<', filter.before);
    return query.orderBy('id', 'desc');
  }

  async function list(filter: AuditFilter, limit: number): Promise<AuditLogEntry[]> {
    const rows: Record<string, unknown>[] = await filtered(filter).limit(limit);
    return rows.map(toEntry);
  }

  return {
    async record(entry: AuditEntry, trx: Db = db): Promise<void> {
      await trx('audit_log').insert({
        actor_id: entry.actorId,
        actor_email: entry.actorEmail,
        action: entry.action.slice(0, ACTION_LENGTH),
        target_type: entry.targetType ?? null,
        target_id: entry.targetId ?? null,
        user_id: subjectOf(entry)?.slice(0, ID_LENGTH) ?? null,
        details: toJson(detailsOf(entry)),
        ip: entry.ip ?? null,
        created_at: entry.now,
      });
    },

    /** Whether `action` on `targetId` was recorded with this value in its details (e.g. one refund id). */
    async hasEntry(action: string, targetId: string, detail: { key: string; value: string }, trx: Db = db): Promise<boolean> {
      const rows: Array<{ details: unknown }> = await trx('audit_log').select('details').where({ action, target_id: targetId });
      return rows.some((row) => parseJson<Record<string, unknown>>(row.details, {})[detail.key] === detail.value);
    },

    /** Entries matching `filter`, newest first (by id: the order they were written), at most `limit`. */
    list,
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
