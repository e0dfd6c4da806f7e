import { LOCALES, type Locale } from '../../../../shared/locales.js';
import { randomUUID } from 'node:crypto';
import { ROLES, STAFF_ROLES, type Role } from '../../../../shared/auth.js';
import type { Knex } from 'knex';
import { dialectOf, type Db } from '../../db/knex.js';
import { preparedFirst, type Row } from '../../db/prepared-read.js';
import { LruMap } from '../../lib/lru-map.js';
import { isUniqueViolation } from '../../db/errors.js';
import { toBool, toDate } from '../../db/values.js';
import { USER_LIST_EMAIL_INDEX } from '../../db/migrations/031-user-list-email-index.js';

export interface UserProfile {
  id: string;
  /** Null for a customer who came through the Telegram bot and has not given one (migration 048). */
  email: string | null;
  role: Role;
  trialUsed: boolean;
  /** The language they read (set at sign-in, changeable); null until known. */
  locale: Locale | null;
  createdAt: Date;
  updatedAt: Date;
}

interface UserRow {
  id: string;
  email: string | null;
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
    role: (ROLES as readonly string[]).includes(row.role) ? (row.role as Role) : 'user',
    trialUsed: toBool(row.trial_used),
    locale: (LOCALES as readonly string[]).includes(row.locale ?? '') ? (row.locale as Locale) : null,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/** What decides a page's SQL (the values are bound): one statement per shape. */
interface PageShape {
  search: 'none' | 'exact' | 'prefix';
  /** A prefix with an end to its range (every prefix but one of U+10FFFF only). */
  bounded: boolean;
  after: boolean;
  role: boolean;
  active: boolean;
  pastDue: boolean;
  limit: number;
}

async function erasedAfterTrial(db: Db, emailHash: string): Promise<boolean> {
  const row = await db('erased_customers')
    .join('user_profiles', 'user_profiles.id', 'erased_customers.user_id')
    .where({ 'erased_customers.email_hash': emailHash, 'user_profiles.trial_used': true })
    .first('user_profiles.id');
  return row !== undefined;
}

/** One page of the admin's users list (see `listPageJson`). */
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

/**
 * The least string above every string that starts with `prefix`, in code point order (UTF-8's byte order, which
 * is how both databases compare the e-mail below); none when every character is the highest code point. So
 * `email >= prefix AND email < prefixEnd(prefix)` holds exactly the addresses starting with it, no wildcard in it.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    // The surrogates are no characters of their own: after U+D7FF comes U+E000.
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return undefined;
}

/**
 * Each listed user as the JSON of an AdminUser (see toAdminUser), written by the database, and a page as one
 * string of them: a page is read and sent without a JS value per row, a date parsed, an object made or
 * serialised (those were most of a page's cost; on SQLite, so were `json_object` and `strftime('%f')`, about
 * twice the cost of the concatenation below). Same fields, order and values as toAdminUser: a role that is not
 * a staff role reads "user"; the time is toISOString's (milliseconds, UTC); SQLite holds it as epoch milliseconds (see
 * db/values.ts) and its booleans as 0/1.
 */
const ADMIN_USER_JSON = {
  // Concatenated rather than row_to_json of a subquery: that took PostgreSQL half again as long.
  postgres: `'{"id":' || to_json(u.id)::text || ',"email":' || to_json(u.email)::text || ',"role":"' || CASE WHEN u.role IN ('owner', 'admin', 'support', 'finance') THEN u.role ELSE 'user' END
    || '","trialUsed":' || u.trial_used::text || ',"createdAt":"' || to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}' AS json`,
  sqlite: `'{"id":' || json_quote(u.id) || ',"email":' || json_quote(u.email) || ',"role":"' || CASE WHEN u.role IN ('owner', 'admin', 'support', 'finance') THEN u.role ELSE 'user' END
    || '","trialUsed":' || CASE WHEN u.trial_used IN (1, 't') THEN 'true' ELSE 'false' END
    || ',"createdAt":"' || date(u.created_at / 1000, 'unixepoch') || 'T' || time(u.created_at / 1000, 'unixepoch') || '.' || substr(1000 + u.created_at % 1000, 2) || 'Z"}' AS json`,
} as const;

/** `erasedEmailHash`: the keyed hash a deleted customer's address left (erased-email.ts), when the trial should follow it. */
export function createUsersRepo(db: Db, opts: { erasedEmailHash?: (email: string) => string } = {}) {
  const pg = dialectOf(db) === 'postgres';
  /**
   * A page's query for its shape, with the caller's values (markers when prepared). Keyset pages, each answered
   * from an index whatever the table's size: newest first on (created_at, id); with a prefix, by e-mail on its
   * index, as a range (byte order on both databases: PostgreSQL's default collation may sort otherwise). A range
   * of bound values keeps the statement one prepared statement (a LIKE had to be planned for its pattern on every
   * request). A role, "active" and "past due" each have indexes of their own in both orders (010, 026), so a
   * filtered page reads about its own rows, not the users between them. The page comes back as one row: its users'
   * JSON joined in the page's order.
   */
  function buildPage(shape: PageShape, values: { value: string; endValue: string; afterId: string; role: string }): Knex.QueryBuilder {
    // SQLite: a plain prefix search from the index that holds the whole page (031); with a filter, the filter's own index.
    const fromListIndex = !pg && shape.search === 'prefix' && !shape.role && !shape.active && !shape.pastDue;
    const table = fromListIndex ? db.raw(`user_profiles AS u INDEXED BY ${USER_LIST_EMAIL_INDEX}`) : 'user_profiles as u';
    const builder = db
      .from(table)
      .select(db.raw(ADMIN_USER_JSON[pg ? 'postgres' : 'sqlite']))
      .limit(shape.limit);
    const byEmail = shape.search === 'prefix';
    const email = pg ? 'u.email COLLATE "C"' : 'u.email';
    builder.select(db.raw(byEmail ? `${email} AS k1, '' AS k2` : 'u.created_at AS k1, u.id AS k2'));
    if (shape.search === 'exact') builder.where('u.email', values.value);
    if (byEmail) {
      builder.whereRaw(`${email} >= ?`, [values.value]).orderByRaw(email);
      if (shape.bounded) builder.whereRaw(`${email} < ?`, [values.endValue]);
      if (shape.after) builder.whereRaw(`${email} > (SELECT c.email FROM user_profiles c WHERE c.id = ?)`, [values.afterId]);
    } else {
      builder.orderBy([
        { column: 'u.created_at', order: 'desc' },
        { column: 'u.id', order: 'desc' },
      ]);
      // A row-value comparison: both databases seek the (created_at, id) index to it (an OR of two conditions would
      // scan). The cursor's values come from a subquery, evaluated once: one round trip for a page, not two.
      if (shape.after) builder.whereRaw('(u.created_at, u.id) < (SELECT c.created_at, c.id FROM user_profiles c WHERE c.id = ?)', [values.afterId]);
    }
    if (shape.role) builder.where('u.role', values.role);
    // Written as the partial indexes' own conditions (a bound 0 would not prove to SQLite that they apply).
    // Past due first: the rarer flag, whose index the planner should walk when both are asked for.
    if (shape.pastDue) builder.whereRaw('u.past_due_subscriptions > 0');
    if (shape.active) builder.whereRaw('u.active_accounts > 0');
    const order = byEmail ? (pg ? 'p.k1 COLLATE "C"' : 'p.k1') : 'p.k1 DESC, p.k2 DESC';
    return db.from(builder.as('p')).first(db.raw(`${pg ? 'string_agg' : 'group_concat'}(p.json, ',' ORDER BY ${order}) AS page`));
  }
  // Each shape's statement, built (and on SQLite prepared) at its first use: a page then costs no query building.
  // The shapes in use are few (a page size or two, a filter or two); an odd `limit` each time only evicts old ones.
  const pageReads = new LruMap<string, (value: string, endValue: string, afterId: string, role: string) => Promise<Row | undefined>>(64);

  return {
    ...createStaffRoles(db),

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
      const existing = await this.findByEmail(email);
      if (existing) return existing;
      // Someone who deleted their account after their trial does not get a second one by signing up again.
      const trialUsed = opts.erasedEmailHash ? await erasedAfterTrial(db, opts.erasedEmailHash(email)) : false;
      await db('user_profiles').insert({ id: randomUUID(), email, role, trial_used: trialUsed, created_at: now, updated_at: now }).onConflict('email').ignore();
      const profile = await this.findByEmail(email);
      if (!profile) throw new Error(`profile for ${email} vanished after insert`);
      return profile;
    },

    /** A customer without an e-mail address (one who came through the Telegram bot), reading `locale`. */
    async createWithoutEmail(locale: Locale | null, now: Date): Promise<UserProfile> {
      const id = randomUUID();
      await db('user_profiles').insert({ id, email: null, role: 'user', trial_used: false, locale, created_at: now, updated_at: now });
      return (await this.findById(id))!;
    },

    /**
     * Gives a customer without an address the one they proved (an e-mail code). Answers the profile, or `taken` when another
     * customer has the address (the unique index decides, so two at once cannot both get it); undefined when they already have one.
     */
    async setEmail(id: string, email: string, now: Date): Promise<UserProfile | 'taken' | undefined> {
      try {
        const updated = await db('user_profiles').where({ id }).whereNull('email').update({ email, updated_at: now });
        return updated > 0 ? this.findById(id) : undefined;
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },

    /** The e-mail of every owner and admin (for operational notices). */
    async listAdminEmails(): Promise<string[]> {
      return (await db('user_profiles').whereIn('role', ['owner', 'admin']).whereNotNull('email').orderBy('email').pluck('email')) as string[];
    },

    /** One page of the admin's users list: its users' JSON (see ADMIN_USER_JSON) joined by commas, in the page's order ('' for none). */
    async listPageJson(query: UsersPageQuery): Promise<string> {
      const { search, after } = query;
      const end = search && 'prefix' in search ? prefixEnd(search.prefix) : undefined;
      const shape: PageShape = {
        search: search ? ('exact' in search ? 'exact' : 'prefix') : 'none',
        bounded: end !== undefined,
        after: after !== undefined,
        role: query.role !== undefined,
        active: Boolean(query.active),
        pastDue: Boolean(query.pastDue),
        limit: query.limit,
      };
      const key = JSON.stringify(shape);
      let read = pageReads.get(key);
      if (!read) {
        read = preparedFirst(db, (value: string, endValue: string, afterId: string, role: string) => buildPage(shape, { value, endValue, afterId, role }));
        pageReads.set(key, read);
      }
      const value = search ? ('exact' in search ? search.exact : search.prefix) : '';
      const row = await read(value, end ?? '', after ?? '', query.role ?? '');
      return (row?.page as string | null | undefined) ?? '';
    },

    async update(id: string, changes: { trialUsed?: boolean; locale?: Locale }, now: Date): Promise<UserProfile | undefined> {
      const patch: Record<string, unknown> = { updated_at: now };
      if (changes.trialUsed !== undefined) patch.trial_used = changes.trialUsed;
      if (changes.locale !== undefined) patch.locale = changes.locale;
      await db('user_profiles').where({ id }).update(patch);
      return this.findById(id);
    },
  };
}

/** The staff and their roles (a part of the users repository). */
function createStaffRoles(db: Db) {
  return {
    /** Every staff member (any staff role), by e-mail. */
    async listStaff(): Promise<UserProfile[]> {
      const rows: UserRow[] = await db('user_profiles').select(USER_COLUMNS).whereIn('role', STAFF_ROLES).orderBy('email');
      return rows.map(toUserProfile);
    },

    /** How many owners the store has (it must keep one). */
    async countOwners(): Promise<number> {
      const [row] = await db('user_profiles').where({ role: 'owner' }).count({ n: '*' });
      return Number(row?.n ?? 0);
    },

    /**
     * Gives `id` a role, keeping at least one owner: the owners' rows are locked first, so two owners taking each
     * other's role at once leave one of them (the second sees one owner left). 'last_owner' when refused.
     */
    async setRole(id: string, role: Role, now: Date): Promise<{ before: Role; user: UserProfile } | 'last_owner' | undefined> {
      return db.transaction(async (trx) => {
        const owners: string[] = await trx('user_profiles').where({ role: 'owner' }).forUpdate().orderBy('id').pluck('id');
        const row: UserRow | undefined = await trx('user_profiles').select(USER_COLUMNS).where({ id }).forUpdate().first();
        if (!row) return undefined;
        const before = toUserProfile(row);
        if (before.role === 'owner' && role !== 'owner' && owners.length <= 1) return 'last_owner';
        if (before.role !== role) await trx('user_profiles').where({ id }).update({ role, updated_at: now });
        return { before: before.role, user: { ...before, role, updatedAt: before.role !== role ? now : before.updatedAt } };
      });
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
