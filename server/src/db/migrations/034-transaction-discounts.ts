import type { Knex } from 'knex';
import { dialectOf } from '../knex.js';
import { COUNTED_TABLES, createPostgresTriggers, createSqliteTriggers, upsertCounts, type Counted } from './025-overview-counts.js';

/**
 * What a promo code took off each payment, on the payment itself (`transactions.discount`, minor units of its
 * currency; 0 without a code), and counted per day and currency as `discounts` in `overview_counts` by the same
 * triggers as revenue (migration 025), for payments that succeeded: the overview's revenue before discounts is
 * revenue plus discounts, with no scan of payments per request.
 */
const TRANSACTIONS = COUNTED_TABLES.find((counted) => counted.table === 'transactions')!;
const DISCOUNTS: Counted = {
  metric: 'discounts', perDay: true, currency: (r) => `${r}.currency`, amount: (r) => `${r}.discount`, when: (r) => `${r}.status = 'succeeded'`,
};

async function dropTriggers(knex: Knex): Promise<void> {
  const postgres = dialectOf(knex) === 'postgres';
  for (const event of ['insert', 'delete', 'update']) {
    await knex.raw(postgres ? `DROP TRIGGER transactions_overview_${event} ON transactions` : `DROP TRIGGER transactions_overview_${event}`);
  }
  if (postgres) await knex.raw('DROP FUNCTION transactions_overview_count()');
}

async function createTriggers(knex: Knex, columns: string[], counts: Counted[]): Promise<void> {
  if (dialectOf(knex) === 'postgres') await createPostgresTriggers(knex, 'transactions', columns, counts);
  else await createSqliteTriggers(knex, 'transactions', columns, counts);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (t) => {
    t.integer('discount').notNullable().defaultTo(0);
  });
  // Payments made with a code before this column (the 025 triggers do not watch it: no count moves here).
  await knex.raw(`UPDATE transactions SET discount = (SELECT r.discount FROM promo_redemptions r WHERE r.transaction_id = transactions.id)
    WHERE EXISTS (SELECT 1 FROM promo_redemptions r WHERE r.transaction_id = transactions.id)`);
  await dropTriggers(knex);
  await createTriggers(knex, [...TRANSACTIONS.columns, 'discount'], [...TRANSACTIONS.counts, DISCOUNTS]);
  await knex.raw(upsertCounts(dialectOf(knex), [DISCOUNTS], [{ row: 'r', sign: 1, from: 'transactions r' }]));
}

export async function down(knex: Knex): Promise<void> {
  await dropTriggers(knex);
  await createTriggers(knex, TRANSACTIONS.columns, TRANSACTIONS.counts);
  await knex('overview_counts').where({ metric: 'discounts' }).delete();
  await knex.schema.alterTable('transactions', (t) => {
    t.dropColumn('discount');
  });
}
