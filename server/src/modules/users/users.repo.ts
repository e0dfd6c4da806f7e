import { randomUUID } from 'node:crypto';
import type { Role } from '../../../../shared/auth.js';
import type { Db } from '../../db/knex.js';
import { toBool, toDate } from '../../db/values.js';

export interface UserProfile {
  id: string;
  email: string;
  role: Role;
  trialUsed: boolean;
  createdAt: Date;
  updatedAt: Date;
}

interface UserRow {
  id: string;
  email: string;
  role: string;
  trial_used: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export const USER_COLUMNS: string[] = ['id', 'email', 'role', 'trial_used', 'created_at', 'updated_at'];

export function toUserProfile(row: UserRow): UserProfile {
  return {
    id: row.id,
    email: row.email,
    role: row.role === 'admin' ? 'admin' : 'user',
    trialUsed: toBool(row.trial_used),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** LIKE treats % and _ as wildcards; a search box should not. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export function createUsersRepo(db: Db) {
  return {
    async findById(id: string): Promise<UserProfile | undefined> {
      const row = await db('user_profiles').select(USER_COLUMNS).where({ id }).first();
      return row && toUserProfile(row);
    },

    async findByEmail(email: string): Promise<UserProfile | undefined> {
      const row = await db('user_profiles').select(USER_COLUMNS).where({ email }).first();
      return row && toUserProfile(row);
    },

    /** Creates the profile if the address has none (safe against a concurrent insert); returns it. */
    async findOrCreateByEmail(email: string, role: Role, now: Date): Promise<UserProfile> {
      await db('user_profiles')
        .insert({ id: randomUUID(), email, role, trial_used: false, created_at: now, updated_at: now })
        .onConflict('email')
        .ignore();
      const profile = await this.findByEmail(email);
      if (!profile) throw new Error(`profile for ${email} vanished after insert`);
      return profile;
    },

    async list(query: { q?: string | undefined; limit: number }): Promise<UserProfile[]> {
      const builder = db('user_profiles').select(USER_COLUMNS).orderBy([{ column: 'role' }, { column: 'email' }]).limit(query.limit);
      if (query.q) builder.whereRaw("email LIKE ? ESCAPE '\\'", [`%${escapeLike(query.q.toLowerCase())}%`]);
      const rows = await builder;
      return rows.map(toUserProfile);
    },

    /** The e-mail of every admin (for operational notices). */
    async listAdminEmails(): Promise<string[]> {
      return (await db('user_profiles').where({ role: 'admin' }).orderBy('email').pluck('email')) as string[];
    },

    async update(id: string, changes: { role?: Role; trialUsed?: boolean }, now: Date): Promise<UserProfile | undefined> {
      const patch: Record<string, unknown> = { updated_at: now };
      if (changes.role !== undefined) patch.role = changes.role;
      if (changes.trialUsed !== undefined) patch.trial_used = changes.trialUsed;
      await db('user_profiles').where({ id }).update(patch);
      return this.findById(id);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
