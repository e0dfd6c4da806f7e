import type { Knex } from 'knex';

/**
 * The admin users list's filters at a million users (issue 27): "has an active account" and "payment past
 * due" walk an index of just those users instead of probing each user in the list's order (past due is 1
 * user in 100: a page of 50 read ~5,000 users).
 *
 * Each user carries how many of their VPN accounts are active and how many of their subscriptions are past
 * due, kept exact by triggers on vpn_accounts and subscriptions (insert, delete, a status or owner change;
 * a user's deletion cascades to their rows, whose triggers then update nothing). Partial indexes hold only
 * the flagged users, in each order the list walks: newest first, newest first within a role, and by
 * e-mail for a prefix search (in byte order: `email COLLATE "C"` on PostgreSQL, as in 010).
 *
 * A prefix search within a role walks (role, email), so a search for the few admins does not read every
 * matching customer.
 *
 * On SQLite, knex rebuilds a table to drop or alter a column, and the rebuild loses the table's triggers: a
 * later migration that does so to vpn_accounts or subscriptions calls `createCountingTriggers` after it (the
 * counting tests, run on a fully migrated database, fail otherwise).
 */
interface Flag {
  column: 'active_accounts' | 'past_due_subscriptions';
  /** The table counted and the status that counts. */
  table: 'vpn_accounts' | 'subscriptions';
  status: string;
  /** Index names' middle part. */
  name: string;
}

const FLAGS: Flag[] = [
  { column: 'active_accounts', table: 'vpn_accounts', status: 'active', name: 'active' },
  { column: 'past_due_subscriptions', table: 'subscriptions', status: 'past_due', name: 'past_due' },
];

const isPostgres = (knex: Knex) => knex.client.config.client === 'pg';

function partialIndexes(flag: Flag, email: string): Array<[name: string, columns: string]> {
  return [
    [`user_profiles_${flag.name}_created_at_id_index`, 'created_at, id'],
    [`user_profiles_${flag.name}_role_created_at_id_index`, 'role, created_at, id'],
    [`user_profiles_${flag.name}_email_index`, email],
  ];
}

export async function up(knex: Knex): Promise<void> {
  const email = isPostgres(knex) ? 'email COLLATE "C"' : 'email';
  await knex.schema.alterTable('user_profiles', (t) => {
    for (const flag of FLAGS) t.integer(flag.column).notNullable().defaultTo(0);
  });
  for (const flag of FLAGS) {
    await backfill(knex, flag);
    await createCountingTriggers(knex, flag.table);
    for (const [name, columns] of partialIndexes(flag, email)) {
      await knex.raw(`CREATE INDEX ${name} ON user_profiles (${columns}) WHERE ${flag.column} > 0`);
    }
  }
  await knex.raw(`CREATE INDEX user_profiles_role_email_index ON user_profiles (role, ${email})`);
}

/** One statement per flag, on the (user_id, status) indexes of 010: seconds at a million users. */
async function backfill(knex: Knex, flag: Flag): Promise<void> {
  await knex.raw(
    `UPDATE user_profiles SET ${flag.column} = (SELECT count(*) FROM ${flag.table} c WHERE c.user_id = user_profiles.id AND c.status = ?)
     WHERE id IN (SELECT user_id FROM ${flag.table} WHERE status = ?)`,
    [flag.status, flag.status],
  );
}

/** The triggers that keep users' counts of `table`'s rows (see above: after SQLite rebuilds that table). */
export async function createCountingTriggers(knex: Knex, table: Flag['table']): Promise<void> {
  for (const flag of FLAGS.filter((f) => f.table === table)) {
    if (isPostgres(knex)) await createPostgresTriggers(knex, flag);
    else await createSqliteTriggers(knex, flag);
  }
}

const triggerName = (flag: Flag, event: string) => `${flag.table}_count_${flag.column}_${event}`;

async function createSqliteTriggers(knex: Knex, flag: Flag): Promise<void> {
  const add = (row: 'NEW' | 'OLD', delta: string) =>
    `UPDATE user_profiles SET ${flag.column} = ${flag.column} ${delta} 1 WHERE id = ${row}.user_id AND ${row}.status = '${flag.status}';`;
  await knex.raw(`CREATE TRIGGER ${triggerName(flag, 'insert')} AFTER INSERT ON ${flag.table} WHEN NEW.status = '${flag.status}' BEGIN ${add('NEW', '+')} END`);
  await knex.raw(`CREATE TRIGGER ${triggerName(flag, 'delete')} AFTER DELETE ON ${flag.table} WHEN OLD.status = '${flag.status}' BEGIN ${add('OLD', '-')} END`);
  await knex.raw(
    `CREATE TRIGGER ${triggerName(flag, 'update')} AFTER UPDATE OF status, user_id ON ${flag.table}
     WHEN (OLD.status = '${flag.status}' OR NEW.status = '${flag.status}') AND (OLD.status IS NOT NEW.status OR OLD.user_id IS NOT NEW.user_id)
     BEGIN ${add('OLD', '-')} ${add('NEW', '+')} END`,
  );
}

async function createPostgresTriggers(knex: Knex, flag: Flag): Promise<void> {
  const fn = `${flag.table}_count_${flag.column}`;
  await knex.raw(`
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = '${flag.status}' THEN
        UPDATE user_profiles SET ${flag.column} = ${flag.column} - 1 WHERE id = OLD.user_id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = '${flag.status}' THEN
        UPDATE user_profiles SET ${flag.column} = ${flag.column} + 1 WHERE id = NEW.user_id;
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER ${triggerName(flag, 'insert_delete')} AFTER INSERT OR DELETE ON ${flag.table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  // An update that changes neither the status nor the owner (most of them) costs nothing more.
  await knex.raw(
    `CREATE TRIGGER ${triggerName(flag, 'update')} AFTER UPDATE OF status, user_id ON ${flag.table} FOR EACH ROW
     WHEN ((OLD.status = '${flag.status}' OR NEW.status = '${flag.status}') AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.user_id IS DISTINCT FROM NEW.user_id))
     EXECUTE FUNCTION ${fn}()`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX user_profiles_role_email_index');
  for (const flag of [...FLAGS].reverse()) {
    for (const [name] of partialIndexes(flag, '')) await knex.raw(`DROP INDEX ${name}`);
    if (isPostgres(knex)) {
      await knex.raw(`DROP TRIGGER ${triggerName(flag, 'insert_delete')} ON ${flag.table}`);
      await knex.raw(`DROP TRIGGER ${triggerName(flag, 'update')} ON ${flag.table}`);
      await knex.raw(`DROP FUNCTION ${flag.table}_count_${flag.column}()`);
    } else {
      for (const event of ['insert', 'delete', 'update']) await knex.raw(`DROP TRIGGER ${triggerName(flag, event)}`);
    }
  }
  await knex.schema.alterTable('user_profiles', (t) => {
    for (const flag of FLAGS) t.dropColumn(flag.column);
  });
}
