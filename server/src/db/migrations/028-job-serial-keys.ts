import type { Knex } from 'knex';

/**
 * Jobs of one VPN account run one at a time, in the order they were enqueued (issue 27), while jobs of
 * different accounts run side by side. `serial_key` names what a job must not run alongside
 * (`account:<id>`); `seq` is the order jobs were added in (a sequence on PostgreSQL; on SQLite, whose
 * writes are serialised, the next number at insert). At most one job per key is `running`: the unique
 * partial index turns a second claimer's update into a conflict, which no snapshot can hide.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('ALTER TABLE jobs ADD COLUMN seq BIGSERIAL');
  } else {
    await knex.schema.alterTable('jobs', (t) => {
      t.bigInteger('seq');
    });
    await knex.raw('UPDATE jobs SET seq = rowid');
  }
  await knex.schema.alterTable('jobs', (t) => {
    t.string('serial_key', 128);
    t.index(['serial_key', 'status', 'seq'], 'jobs_serial_key_status_seq_index');
    // SQLite reads the next number at each insert (MAX(seq)): from this index, not by a scan of every job.
    t.index(['seq'], 'jobs_seq_index');
  });
  await knex.raw("CREATE UNIQUE INDEX jobs_serial_key_running_unique ON jobs (serial_key) WHERE status = 'running'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX jobs_serial_key_running_unique');
  await knex.schema.alterTable('jobs', (t) => {
    t.dropIndex(['serial_key', 'status', 'seq'], 'jobs_serial_key_status_seq_index');
    t.dropIndex(['seq'], 'jobs_seq_index');
    t.dropColumn('serial_key');
    t.dropColumn('seq');
  });
}
