import type { Knex } from 'knex';

/**
 * The wallet (issue 51): the referral credit ledger becomes every customer's one balance. `referral_credits` is
 * renamed `wallet_movements` (its rows, ids and indexes stay as they are); besides the referral movements
 * (earned, cancelled, reinstated, spent, restored) it takes top-ups, refunds paid into it and the admin's
 * adjustments, whose note for the customer goes in `memo` (`note` stays the short machine tag it was).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.renameTable('referral_credits', 'wallet_movements');
  await knex.schema.alterTable('wallet_movements', (t) => {
    t.text('memo');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('wallet_movements', (t) => {
    t.dropColumn('memo');
  });
  await knex.schema.renameTable('wallet_movements', 'referral_credits');
}
