import type { Knex } from 'knex';

/**
 * Customers change plan (issue 55). A plan change pays for the new plan from now, crediting the unused part of
 * what was paid: the periods it credited end at that moment (a period not begun yet ends as it begins), written once
 * on their ledger row as a void is: `cut_at`, `cut_by_transaction_id` (the change's payment) and the span it had
 * before (`starts_at_before_cut`, `ends_at_before_cut`). The account's `paid_until` follows `ends_at` as always. A downgrade the operator lets wait
 * for the period's end is kept on the account (`next_plan_id`, from `next_plan_at`) until it is applied.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('paid_periods', (t) => {
    t.timestamp('cut_at', { useTz: true }).nullable();
    t.string('cut_by_transaction_id', 36).nullable();
    t.timestamp('starts_at_before_cut', { useTz: true }).nullable();
    t.timestamp('ends_at_before_cut', { useTz: true }).nullable();
  });
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.string('next_plan_id', 36).nullable();
    t.timestamp('next_plan_at', { useTz: true }).nullable();
    t.index(['next_plan_at'], 'vpn_accounts_next_plan_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.dropIndex(['next_plan_at'], 'vpn_accounts_next_plan_at_idx');
    t.dropColumn('next_plan_at');
    t.dropColumn('next_plan_id');
  });
  await knex.schema.alterTable('paid_periods', (t) => {
    t.dropColumn('ends_at_before_cut');
    t.dropColumn('starts_at_before_cut');
    t.dropColumn('cut_by_transaction_id');
    t.dropColumn('cut_at');
  });
}
