import type { Knex } from 'knex';

/**
 * What a person opened the bot with (issue 54): `t.me/<bot>?start=ref_<code>`, `gift_<code>` or `promo_<code>`, kept on
 * their chat until it can be used — a referral when they become a customer through the bot, a gift or a code once
 * they are linked to one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.string('start_payload', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('telegram_chats', (t) => {
    t.dropColumn('start_payload');
  });
}
