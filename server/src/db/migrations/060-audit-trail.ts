import type { Knex } from 'knex';

/**
 * The audit trail (issue 56): every entry names the customer it is about in `user_id` (a sign-in, a refund of their
 * payment, a device removed from their account, a staff change to their profile), so their page and the Audit
 * section's "customer" filter read one indexed column instead of each action's details. Entries written before are
 * filled in from their target (a user) or the `userId` their details name (refunds, wallet moves). The Audit
 * section filters by action (a prefix) and by the staff member's address, each indexed with `id` (its order).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    t.string('user_id', 36).nullable();
    t.index(['user_id', 'id'], 'audit_log_user_id_id_index');
    t.index(['action', 'id'], 'audit_log_action_id_index');
    t.index(['actor_email', 'id'], 'audit_log_actor_email_id_index');
  });
  await knex('audit_log').where({ target_type: 'user' }).update({ user_id: knex.ref('target_id') });
  const userIdInDetails = knex.client.config.client === 'pg' ? "details->>'userId'" : "json_extract(details, '$.userId')";
  await knex('audit_log')
    .whereNull('user_id')
    .whereRaw(`${userIdInDetails} is not null`)
    .update({ user_id: knex.raw(knex.client.config.client === 'pg' ? `left(${userIdInDetails}, 36)` : `substr(${userIdInDetails}, 1, 36)`) });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropIndex(['user_id', 'id'], 'audit_log_user_id_id_index');
    t.dropIndex(['action', 'id'], 'audit_log_action_id_index');
    t.dropIndex(['actor_email', 'id'], 'audit_log_actor_email_id_index');
  });
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropColumn('user_id');
  });
}
