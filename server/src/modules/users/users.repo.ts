import { LOCALES, type Locale } from '../../../../shared/locales.js';
import { randomUUID } from 'node:crypto';
import type { Role } from '../../../../shared/auth.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { toBool, toDate } from '../../db/values.js';

export interface UserProfile {
  id: string;
  email: string;
  role: Role;
  trialUsed: boolean;
  /** The language they read (set at sign-in, changeable); null until known. */
  locale: Locale | null;
  createdAt: Date;
  updatedAt: Date;
}

interface UserRow {
  id: string;
  email: string;
  role: string;
  trial_used: unknown;
  locale?: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export const USER_COLUMNS: string[] = ['id', 'email', 'role', 'trial_used', 'locale', 'created_at', 'updated_at'];

export function toUserProfile(row: UserRow): UserProfile {
  return {
    id: row.id,
    email: row.email,
    role: row.role === 'admin' ? 'admin' : 'user',
    trialUsed: toBool(row.trial_used),
    locale: (LOCALES as readonly string[]).includes(row.locale ?? '') ? (row.locale as Locale) : null,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** One page of the admin's users list (see `listPage`). */
export interface UsersPageQuery {
  /** A whole address: that user; anything else: addresses starting with it. Lower-case. */
  search?: { exact: string } | { prefix: string };
  role?: Role;
  /** Only users with at least one active VPN account. */
  active?: boolean;
  /** Only users with a subscription past due. */
  pastDue?: boolean;
  limit: number;
  /** The id of the last user of the previous page: the page continues after it (none, if no user has that id). */
  after?: string;
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

    /** The e-mail of every admin (for operational notices). */
    async listAdminEmails(): Promise<string[]> {
      return (await db('user_profiles').where({ role: 'admin' }).orderBy('email').pluck('email')) as string[];
    },

    /**
     * Keyset pages, each answered from an index whatever the table's size: newest first on
     * (created_at, id); with a prefix, by e-mail on its unique index (the range finds the rows, the LIKE
     * keeps the exact prefix under any collation). A role, "active" and "past due" each have indexes of
     * their own in both orders (010, 026), so a filtered page reads about its own rows, not the users
     * between them.
     */
    async listPage(query: UsersPageQuery): Promise<UserProfile[]> {
      const builder = db('user_profiles as u').select(USER_COLUMNS.map((column) => `u.${column}`)).limit(query.limit);
      const { search, after } = query;
      if (search && 'exact' in search) builder.where('u.email', search.exact);
      if (search && 'prefix' in search) {
        // Byte order on both databases (PostgreSQL's default collation may sort otherwise). PostgreSQL derives the
        // index range from a LIKE in the "C" collation, and estimates it well only without a second range beside it
        // (with one it expected a handful of rows and sorted every match); SQLite needs the range spelled out.
        const pg = dialectOf(db) === 'postgres';
        const email = pg ? 'u.email COLLATE "C"' : 'u.email';
        if (!pg) builder.whereRaw(`${email} >= ? and ${email} < ?`, [search.prefix, `${search.prefix}\uffff`]);
        builder.whereRaw(`${email} LIKE ? ESCAPE '\\'`, [`${escapeLike(search.prefix)}%`]).orderByRaw(email);
        if (after) builder.whereRaw(`${email} > (SELECT c.email FROM user_profiles c WHERE c.id = ?)`, [after]);
      } else {
        builder.orderBy([{ column: 'u.created_at', order: 'desc' }, { column: 'u.id', order: 'desc' }]);
        // A row-value comparison: both databases seek the (created_at, id) index to it (an OR of two conditions would
        // scan). The cursor's values come from a subquery, evaluated once: one round trip for a page, not two.
        if (after) builder.whereRaw('(u.created_at, u.id) < (SELECT c.created_at, c.id FROM user_profiles c WHERE c.id = ?)', [after]);
      }
      if (query.role) builder.where('u.role', query.role);
      // Written as the partial indexes' own conditions (a bound 0 would not prove to SQLite that they apply).
      // Past due first: the rarer flag, whose index the planner should walk when both are asked for.
      if (query.pastDue) builder.whereRaw('u.past_due_subscriptions > 0');
      if (query.active) builder.whereRaw('u.active_accounts > 0');
      return (await builder).map(toUserProfile);
    },

    async update(id: string, changes: { role?: Role; trialUsed?: boolean; locale?: Locale }, now: Date): Promise<UserProfile | undefined> {
      const patch: Record<string, unknown> = { updated_at: now };
      if (changes.role !== undefined) patch.role = changes.role;
      if (changes.trialUsed !== undefined) patch.trial_used = changes.trialUsed;
      if (changes.locale !== undefined) patch.locale = changes.locale;
      await db('user_profiles').where({ id }).update(patch);
      return this.findById(id);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
