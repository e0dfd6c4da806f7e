import type { Knex } from 'knex';

/**
 * A plan's traffic rules (issue 55): `traffic_reset` (`none`, or `monthly`: the store resets the data every month
 * of the paid period), `traffic_carry_over` (unused data goes to the next month or period), `grace_days` (days an
 * account runs after its paid end when nothing renews it) and `grace_data_limit` (bytes allowed during them; null:
 * the limit stays). The defaults keep every existing plan as it was.
 *
 * `plan_traffic_steps`: each change the store made to an account's data once (a month's reset, the grace limit at a
 * paid end, a renewal's carry-over), unique by account and step, with the numbers it set written before the panel is
 * called, so a rerun, a second instance or a restart never does it twice or with other numbers.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.string('traffic_reset', 16).notNullable().defaultTo('none');
    t.boolean('traffic_carry_over').notNullable().defaultTo(false);
    t.integer('grace_days').notNullable().defaultTo(0);
    t.bigInteger('grace_data_limit').nullable();
  });
  await knex.schema.createTable('plan_traffic_steps', (t) => {
    t.increments('id').primary();
    t.string('vpn_account_id', 36).notNullable().references('id').inTable('vpn_accounts').onDelete('CASCADE');
    /** `reset:<paid period>:<month>`, `grace:<paid end>` or `renewal:<transaction>`. */
    t.string('step_key', 200).notNullable();
    /** The job that claimed it (another runner leaves it alone). */
    t.string('job_id', 36).nullable();
    t.bigInteger('used_before').nullable();
    t.bigInteger('carried').notNullable().defaultTo(0);
    t.bigInteger('data_limit').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('done_at', { useTz: true }).nullable();
    t.unique(['vpn_account_id', 'step_key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('plan_traffic_steps');
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('grace_data_limit');
    t.dropColumn('grace_days');
    t.dropColumn('traffic_carry_over');
    t.dropColumn('traffic_reset');
  });
}
