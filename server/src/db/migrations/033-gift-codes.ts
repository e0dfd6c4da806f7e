import type { Knex } from 'knex';

/**
 * Gift codes, issued in batches for a plan. A code is redeemed once: the redemption is a conditional update of its
 * row (only while `redeemed_at` is null), written with the free order it makes, in one database transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('gift_code_batches', (t) => {
    t.string('id', 36).primary();
    t.string('plan_id', 36).references('id').inTable('plans').onDelete('SET NULL');
    /** The plan's name when the batch was made (the plan may be renamed or deleted later). */
    t.string('plan_name', 255).notNullable();
    t.integer('count').notNullable();
    t.string('note', 200);
    t.string('created_by', 36);
    t.timestamp('created_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('gift_codes', (t) => {
    t.string('id', 36).primary();
    t.string('batch_id', 36).notNullable().references('id').inTable('gift_code_batches').onDelete('CASCADE');
    /** As shown (`ABCD-EFGH-…`), and as matched (upper case, no dashes). */
    t.string('code', 40).notNullable();
    t.string('code_key', 40).notNullable().unique();
    t.string('redeemed_by', 36).references('id').inTable('user_profiles').onDelete('SET NULL');
    t.timestamp('redeemed_at', { useTz: true });
    t.string('transaction_id', 36);
    t.timestamp('revoked_at', { useTz: true });
    t.index(['batch_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('gift_codes');
  await knex.schema.dropTableIfExists('gift_code_batches');
}
