import type { Knex } from 'knex';
import { dialectOf } from '../knex.js';

/**
 * A version of the overview's past days (issue 27): the overview keeps the days before yesterday in
 * memory and reads them again only when this number moves. Triggers on the tables the overview reads
 * (`overview_counts`, `daily_stats`) bump it when a write hits a day before the database's today (an old
 * payment refunded, an old row deleted, a late snapshot): rare, so today's writes (signups, payments,
 * traffic) never wait on its row. The overview caches only days before its own yesterday, a day short of
 * what the triggers watch, so a clock a few hours off the database's still never leaves a stale day.
 */
const WATCHED = ['overview_counts', 'daily_stats'];

const pastDay = (dialect: 'sqlite' | 'postgres', row: string) =>
  dialect === 'postgres'
    ? `${row}.day <> '' AND ${row}.day < to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
    : `${row}.day <> '' AND ${row}.day < strftime('%Y-%m-%d', 'now')`;

const BUMP = 'UPDATE overview_history SET version = version + 1 WHERE id = 1';

export async function up(knex: Knex): Promise<void> {
  const dialect = dialectOf(knex);
  await knex.schema.createTable('overview_history', (t) => {
    t.integer('id').primary();
    t.bigInteger('version').notNullable();
  });
  await knex('overview_history').insert({ id: 1, version: 0 });
  for (const table of WATCHED) {
    if (dialect === 'postgres') {
      await knex.raw(`CREATE FUNCTION ${table}_history_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (TG_OP <> 'DELETE' AND ${pastDay('postgres', 'NEW')}) OR (TG_OP <> 'INSERT' AND ${pastDay('postgres', 'OLD')}) THEN ${BUMP}; END IF;
          RETURN NULL;
        END $$`);
      await knex.raw(`CREATE TRIGGER ${table}_history AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_history_bump()`);
    } else {
      await knex.raw(`CREATE TRIGGER ${table}_history_insert AFTER INSERT ON ${table} WHEN ${pastDay('sqlite', 'NEW')} BEGIN ${BUMP}; END`);
      await knex.raw(`CREATE TRIGGER ${table}_history_update AFTER UPDATE ON ${table} WHEN ${pastDay('sqlite', 'NEW')} OR ${pastDay('sqlite', 'OLD')} BEGIN ${BUMP}; END`);
      await knex.raw(`CREATE TRIGGER ${table}_history_delete AFTER DELETE ON ${table} WHEN ${pastDay('sqlite', 'OLD')} BEGIN ${BUMP}; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const dialect = dialectOf(knex);
  for (const table of WATCHED) {
    if (dialect === 'postgres') {
      await knex.raw(`DROP TRIGGER ${table}_history ON ${table}`);
      await knex.raw(`DROP FUNCTION ${table}_history_bump()`);
    } else {
      for (const event of ['insert', 'update', 'delete']) await knex.raw(`DROP TRIGGER ${table}_history_${event}`);
    }
  }
  await knex.schema.dropTable('overview_history');
}
