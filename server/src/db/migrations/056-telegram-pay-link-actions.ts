import type { Knex } from 'knex';

/**
 * What a payment link from the bot opens for one of the customer's accounts (issue 55): its renewal (null, as every
 * link before), its add-ons (`add_ons`) or a change of its plan (`change_plan`), each in the dashboard's own dialog.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_pay_links', (t) => {
    t.string('action', 16).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_pay_links', (t) => {
    t.dropColumn('action');
  });
}
