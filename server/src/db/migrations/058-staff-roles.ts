import type { Knex } from 'knex';

/**
 * Staff roles (issue 56): `user_profiles.role` may now also be `owner`, `support` or `finance` beside `admin` and
 * `user` (a string column: no schema change). A store upgraded from before had only all-powerful admins, so its
 * first admin becomes the owner, who alone manages staff and payment keys; the others stay admins. `ADMIN_EMAILS`
 * names owners from now on, at their next sign-in.
 */
export async function up(knex: Knex): Promise<void> {
  const owner = await knex('user_profiles').where({ role: 'owner' }).first('id');
  if (owner) return;
  const first = await knex('user_profiles').where({ role: 'admin' }).orderBy([{ column: 'created_at' }, { column: 'id' }]).first('id');
  if (first) await knex('user_profiles').where({ id: first.id }).update({ role: 'owner' });
}

export async function down(knex: Knex): Promise<void> {
  // Back to the two roles of before, never widening anyone's powers: owners were admins; support and finance were not.
  await knex('user_profiles').where({ role: 'owner' }).update({ role: 'admin' });
  await knex('user_profiles').whereIn('role', ['support', 'finance']).update({ role: 'user' });
}
