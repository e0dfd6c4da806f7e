import type { Knex } from 'knex';
import { dialectOf } from '../knex.js';

/**
 * SQLite: the admin's prefix search found its users on the e-mail index, then read each one's row from the
 * table: a page's 50 addresses lie on about 50 pages all over a large table. This index holds every column
 * the list shows, so such a page is read from the index alone (the list names it: SQLite's planner keeps to
 * the unique e-mail index otherwise). PostgreSQL finds those rows in its shared buffers at a fraction of the
 * cost, and its prefix search uses its own "C"-collated index (010): it gets none.
 */
export const USER_LIST_EMAIL_INDEX = 'user_profiles_email_list_index';

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'sqlite') return;
  await knex.raw(`CREATE INDEX ${USER_LIST_EMAIL_INDEX} ON user_profiles (email, id, role, trial_used, created_at)`);
}

export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'sqlite') return;
  await knex.raw(`DROP INDEX IF EXISTS ${USER_LIST_EMAIL_INDEX}`);
}
