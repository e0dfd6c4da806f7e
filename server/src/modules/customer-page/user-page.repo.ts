import type { AdminSession } from '../../../../shared/users.js';
import type { ClientKind } from '../../../../shared/auth.js';
import type { Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';

/** What the admin's user page reads besides the accounts, payments and audit entries: server names and sessions. */
export function createUserPageRepo(db: Db) {
  return {
    /** The internal (admin) name of each account's server, by account id. */
    async serverNamesOf(accountIds: string[]): Promise<Map<string, string>> {
      if (accountIds.length === 0) return new Map();
      const rows = await db('vpn_accounts as a').join('masterservers as s', 's.id', 'a.master_server_id').select('a.id', 's.name').whereIn('a.id', accountIds);
      return new Map(rows.map((row) => [row.id as string, row.name as string]));
    },

    /** Sessions neither signed out nor expired, most recently used first. */
    async listActiveSessions(userId: string, now: Date, limit: number): Promise<AdminSession[]> {
      const rows = await db('sessions')
        .select('id', 'client', 'user_agent', 'ip', 'created_at', 'last_used_at')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .where('expires_at', '>', now)
        .orderBy('last_used_at', 'desc')
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        client: row.client as ClientKind,
        userAgent: row.user_agent ?? null,
        ip: row.ip ?? null,
        createdAt: toDate(row.created_at).toISOString(),
        lastUsedAt: toDate(row.last_used_at).toISOString(),
      }));
    },
  };
}

export type UserPageRepo = ReturnType<typeof createUserPageRepo>;
