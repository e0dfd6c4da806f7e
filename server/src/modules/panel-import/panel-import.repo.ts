import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import type { PanelAccount } from '../../panels/panel-driver.js';
import { generateSubToken } from '../accounts/index.js';
import { panelUsage, usageColumns } from '../accounts/index.js';

/** One panel user about to become an account of the customer with this e-mail. */
export interface ImportRow {
  email: string;
  panel: PanelAccount;
}

export interface ImportedRow {
  username: string;
  email: string;
  accountId: string;
  newCustomer: boolean;
}

export function createPanelImportRepo(db: Db) {
  return {
    /** Which of these usernames an account here already holds (usernames are unique across servers). */
    async findLinkedUsernames(usernames: string[]): Promise<Set<string>> {
      if (usernames.length === 0) return new Set();
      const names: string[] = [];
      for (let i = 0; i < usernames.length; i += 500) {
        names.push(
          ...((await db('vpn_accounts')
            .whereIn('username', usernames.slice(i, i + 500))
            .pluck('username')) as string[]),
        );
      }
      return new Set(names);
    },

    /**
     * Customers (made for new e-mails) and their accounts, all in one transaction: an import is whole or
     * not at all. The account holds the panel's values as read just now; its `/sub` token is new.
     */
    async insertImported(serverId: string, planId: string | null, rows: ImportRow[], now: Date): Promise<ImportedRow[]> {
      return db.transaction(async (trx) => {
        const emails = [...new Set(rows.map((row) => row.email))];
        const existing = new Set<string>();
        for (let i = 0; i < emails.length; i += 500) {
          const chunk = emails.slice(i, i + 500);
          for (const email of (await trx('user_profiles').whereIn('email', chunk).pluck('email')) as string[]) existing.add(email);
          const fresh = chunk.filter((email) => !existing.has(email));
          if (fresh.length > 0) {
            await trx('user_profiles')
              .insert(fresh.map((email) => ({ id: randomUUID(), email, role: 'user', trial_used: false, created_at: now, updated_at: now })))
              .onConflict('email')
              .ignore();
          }
        }
        const userIds = new Map<string, string>();
        for (let i = 0; i < emails.length; i += 500) {
          for (const user of await trx('user_profiles')
            .whereIn('email', emails.slice(i, i + 500))
            .select<Array<{ id: string; email: string }>>('id', 'email')) {
            userIds.set(user.email, user.id);
          }
        }
        const imported = rows.map((row) => ({ row, accountId: randomUUID() }));
        const records = imported.map(({ row, accountId }) => ({
          id: accountId,
          user_id: userIds.get(row.email)!,
          master_server_id: serverId,
          plan_id: planId,
          username: row.panel.username,
          sub_token: generateSubToken(),
          subscription_url: row.panel.subscriptionUrl,
          ...usageColumns(panelUsage(row.panel, []), { imported_at: now.toISOString() }),
          // Not asked yet: the first read of the account asks the panel for its usage and its links (one
          // request per row here would make a large import as slow as the panel).
          usage_checked_at: null,
          created_at: now,
          updated_at: now,
        }));
        for (let i = 0; i < records.length; i += 200) await trx('vpn_accounts').insert(records.slice(i, i + 200));
        return imported.map(({ row, accountId }) => ({ username: row.panel.username, email: row.email, accountId, newCustomer: !existing.has(row.email) }));
      });
    },
  };
}

export type PanelImportRepo = ReturnType<typeof createPanelImportRepo>;
