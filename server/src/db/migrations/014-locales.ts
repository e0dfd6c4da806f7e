import type { Knex } from 'knex';

/** The language a user reads (their e-mails, the /sub page), and the one a sign-in code was asked in. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_profiles', (t) => {
    t.string('locale', 8).nullable();
  });
  await knex.schema.alterTable('otp_codes', (t) => {
    t.string('locale', 8).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('otp_codes', (t) => {
    t.dropColumn('locale');
  });
  await knex.schema.alterTable('user_profiles', (t) => {
    t.dropColumn('locale');
  });
}
