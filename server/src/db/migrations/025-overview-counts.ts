import type { Knex } from 'knex';
import { dialectOf } from '../knex.js';

/**
 * The admin's overview without counting rows on a request (issue 27): `overview_counts` holds, per
 * metric, UTC day (`YYYY-MM-DD`, or `''` for a figure about now) and currency (`''` when none), a value
 * that triggers keep equal to a count of the rows, in the transaction that changes them, whatever code
 * writes them:
 * - `signups`: user_profiles per day created; `users`: all of them (day `''`);
 * - `trials`: trial vpn_accounts per day created; `active_accounts`: accounts whose status is active (day `''`);
 * - `revenue`: per day created and currency, transactions succeeded or refunded, less what was refunded.
 * A deleted row is taken off the figures it counted in (as a count would), so a purge of old rows moves
 * only its old days and the "now" totals.
 *
 * SQLite: a row trigger per insert, delete and update. PostgreSQL: inserts and deletes by statement
 * (their transition tables summed: an import or a cascade moves each counter once per statement, where
 * a row trigger would update one row thousands of times in one transaction, each update slower than the
 * last), updates by row, and only when a counted column changed (the panel sync rewrites statuses that
 * did not change). Counters are upserted in key order, so two transactions take their locks in one order.
 * The backfill counts the existing rows; creating the triggers locks the tables against writes until
 * the migration commits, so no change slips between the two.
 */
export interface Counted {
  metric: string;
  /** Counted on the UTC day of `created_at`; otherwise one figure about now (day `''`). */
  perDay: boolean;
  currency?: (row: string) => string;
  amount?: (row: string) => string;
  when?: (row: string) => string;
}

export const COUNTED_TABLES: Array<{ table: string; columns: string[]; counts: Counted[] }> = [
  {
    table: 'user_profiles',
    columns: ['created_at'],
    counts: [{ metric: 'signups', perDay: true }, { metric: 'users', perDay: false }],
  },
  {
    table: 'vpn_accounts',
    columns: ['created_at', 'trial_user_id', 'status'],
    counts: [
      { metric: 'trials', perDay: true, when: (r) => `${r}.trial_user_id IS NOT NULL` },
      { metric: 'active_accounts', perDay: false, when: (r) => `${r}.status = 'active'` },
    ],
  },
  {
    table: 'transactions',
    columns: ['created_at', 'status', 'currency', 'amount', 'amount_refunded'],
    counts: [{
      metric: 'revenue', perDay: true, currency: (r) => `${r}.currency`, amount: (r) => `${r}.amount - ${r}.amount_refunded`,
      when: (r) => `${r}.status IN ('succeeded', 'refunded')`,
    }],
  },
];

export type Dialect = 'sqlite' | 'postgres';

/** Epoch milliseconds on SQLite, timestamptz on PostgreSQL: the UTC day in both. */
const dayOf = (dialect: Dialect, column: string) =>
  dialect === 'postgres' ? `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : `strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`;

/** Rows to count, each with a sign: `NEW`/`OLD` in a row trigger, or an alias over a table (`from`). */
export interface Source {
  row: string;
  sign: 1 | -1;
  from?: string;
}

/** One upsert adding what `sources` count to every counter they touch (none touched: nothing written). */
export function upsertCounts(dialect: Dialect, counts: Counted[], sources: Source[]): string {
  const parts = sources.flatMap(({ row, sign, from }) => counts.map((count) => {
    const day = count.perDay ? dayOf(dialect, `${row}.created_at`) : `''`;
    const where = count.when ? ` WHERE ${count.when(row)}` : '';
    return `SELECT '${count.metric}' AS metric, ${day} AS day, ${count.currency?.(row) ?? `''`} AS currency, ${sign} * (${count.amount?.(row) ?? '1'}) AS value${from ? ` FROM ${from}` : ''}${where}`;
  }));
  // `WHERE true` keeps SQLite from reading ON CONFLICT as a join's ON.
  return `INSERT INTO overview_counts (metric, day, currency, value)
    SELECT metric, day, currency, sum(value) FROM (${parts.join(' UNION ALL ')}) counted WHERE true
    GROUP BY metric, day, currency HAVING sum(value) <> 0 ORDER BY metric, day, currency
    ON CONFLICT (metric, day, currency) DO UPDATE SET value = overview_counts.value + excluded.value`;
}

export async function createSqliteTriggers(knex: Knex, table: string, columns: string[], counts: Counted[]): Promise<void> {
  const changed = columns.map((column) => `OLD.${column} IS NOT NEW.${column}`).join(' OR ');
  await knex.raw(`CREATE TRIGGER ${table}_overview_insert AFTER INSERT ON ${table} BEGIN ${upsertCounts('sqlite', counts, [{ row: 'NEW', sign: 1 }])}; END`);
  await knex.raw(`CREATE TRIGGER ${table}_overview_delete AFTER DELETE ON ${table} BEGIN ${upsertCounts('sqlite', counts, [{ row: 'OLD', sign: -1 }])}; END`);
  await knex.raw(`CREATE TRIGGER ${table}_overview_update AFTER UPDATE OF ${columns.join(', ')} ON ${table} WHEN ${changed}
    BEGIN ${upsertCounts('sqlite', counts, [{ row: 'OLD', sign: -1 }, { row: 'NEW', sign: 1 }])}; END`);
}

export async function createPostgresTriggers(knex: Knex, table: string, columns: string[], counts: Counted[]): Promise<void> {
  const fn = `${table}_overview_count`;
  const changed = columns.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ');
  await knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${upsertCounts('postgres', counts, [{ row: 'r', sign: 1, from: 'new_rows r' }])};
      ELSIF TG_OP = 'DELETE' THEN ${upsertCounts('postgres', counts, [{ row: 'r', sign: -1, from: 'old_rows r' }])};
      ELSE ${upsertCounts('postgres', counts, [{ row: 'OLD', sign: -1 }, { row: 'NEW', sign: 1 }])};
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER ${table}_overview_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await knex.raw(`CREATE TRIGGER ${table}_overview_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
  await knex.raw(`CREATE TRIGGER ${table}_overview_update AFTER UPDATE OF ${columns.join(', ')} ON ${table} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION ${fn}()`);
}

export async function up(knex: Knex): Promise<void> {
  const dialect = dialectOf(knex);
  await knex.schema.createTable('overview_counts', (t) => {
    t.string('metric', 32).notNullable();
    /** The UTC date, YYYY-MM-DD; '' for a figure about now. */
    t.string('day', 10).notNullable();
    /** A revenue's currency; '' for a count. */
    t.string('currency', 3).notNullable();
    t.bigInteger('value').notNullable();
    t.primary(['metric', 'day', 'currency']);
  });
  for (const { table, columns, counts } of COUNTED_TABLES) {
    if (dialect === 'postgres') await createPostgresTriggers(knex, table, columns, counts);
    else await createSqliteTriggers(knex, table, columns, counts);
    await knex.raw(upsertCounts(dialect, counts, [{ row: 'r', sign: 1, from: `${table} r` }]));
  }
  // The user count is read from overview_counts now; its hourly snapshot is no longer taken.
  await knex('daily_stats').where({ metric: 'users_total' }).delete();
}

export async function down(knex: Knex): Promise<void> {
  const dialect = dialectOf(knex);
  for (const { table } of COUNTED_TABLES) {
    for (const event of ['insert', 'delete', 'update']) {
      await knex.raw(dialect === 'postgres' ? `DROP TRIGGER ${table}_overview_${event} ON ${table}` : `DROP TRIGGER ${table}_overview_${event}`);
    }
    if (dialect === 'postgres') await knex.raw(`DROP FUNCTION ${table}_overview_count()`);
  }
  await knex.schema.dropTable('overview_counts');
}
