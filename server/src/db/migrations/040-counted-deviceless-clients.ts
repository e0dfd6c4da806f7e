import type { Knex } from 'knex';

/**
 * Apps that send no device id, counted as devices (issue 52, `devicelessClients: "count"`): such an app is a
 * device of the account known by its User-Agent and address (`anonymous`), and counts toward the limit only
 * while it was seen within the operator's window.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_devices', (t) => {
    t.boolean('anonymous').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_devices', (t) => {
    t.dropColumn('anonymous');
  });
}
