import type { Knex } from 'knex';
import { dialectOf } from '../knex.js';

/**
 * The dashboard's account list reads every account's paid-period end and whether a payment for it has
 * succeeded: two subqueries per account, a third of the list's SQL (issue 27). Each account now carries
 * both, kept exact by triggers on the rows they are read from:
 *
 * - `paid_until`: the latest `ends_at` of its paid periods that are not void (billing's paidPeriods.latestEnd);
 * - `payment_confirmed`: one of its subscriptions has a `succeeded` transaction.
 *
 * Every trigger reads the value again from those rows (no increments: a period's end can move either way),
 * for the account before and after the change. On PostgreSQL it first locks the account's row, so that a
 * concurrent writer's committed rows are seen by the read that follows (a read under the lock waited for,
 * not under the statement's older snapshot). A deleted account's rows are left (`SET NULL`), which
 * updates nothing.
 *
 * On SQLite, knex rebuilds a table to drop or alter a column, and the rebuild loses the table's triggers: a
 * later migration that does so to paid_periods, subscriptions or transactions calls `createPaidStateTriggers`
 * after it (the tests of this migration, run on a fully migrated database, fail otherwise).
 */
type Watched = 'paid_periods' | 'subscriptions' | 'transactions';
export const PAID_STATE_TABLES: readonly Watched[] = ['paid_periods', 'subscriptions', 'transactions'];

const PAID_UNTIL_OF = (account: string) =>
  `(SELECT max(pp.ends_at) FROM paid_periods pp WHERE pp.vpn_account_id = ${account} AND pp.voided_at IS NULL)`;
const CONFIRMED_OF = (account: string) =>
  `EXISTS (SELECT 1 FROM subscriptions ps JOIN transactions pt ON pt.subscription_id = ps.id WHERE ps.vpn_account_id = ${account} AND pt.status = 'succeeded')`;
/** The account a transaction row's payment is for. */
const ACCOUNT_OF_TRANSACTION = (row: string) => `(SELECT s.vpn_account_id FROM subscriptions s WHERE s.id = ${row}.subscription_id)`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vpn_accounts', (t) => {
    t.timestamp('paid_until', { useTz: true });
    t.boolean('payment_confirmed').notNullable().defaultTo(false);
  });
  await fillPaidState(knex);
  if (dialectOf(knex) === 'postgres') await createPostgresFunctions(knex);
  for (const table of PAID_STATE_TABLES) await createPaidStateTriggers(knex, table);
}

/**
 * Sets every account's paid state from its rows in two statements: the migration's start, and a bulk load that
 * ran with the triggers off (the benchmark's seeding: a row trigger per inserted payment is slow at a million).
 */
export async function fillPaidState(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE vpn_accounts SET paid_until = ${PAID_UNTIL_OF('vpn_accounts.id')}
    WHERE id IN (SELECT vpn_account_id FROM paid_periods WHERE voided_at IS NULL)`);
  await knex.raw(`UPDATE vpn_accounts SET payment_confirmed = true
    WHERE id IN (SELECT ps.vpn_account_id FROM subscriptions ps JOIN transactions pt ON pt.subscription_id = ps.id WHERE pt.status = 'succeeded')`);
}

/** The triggers on `table` that keep accounts' paid state (see above: after SQLite rebuilds that table). */
export async function createPaidStateTriggers(knex: Knex, table: Watched): Promise<void> {
  if (dialectOf(knex) === 'postgres') await createPostgresTriggers(knex, table);
  else await createSqliteTriggers(knex, table);
}

/** What each table's change touches: the column kept, the account of a row, and when an update matters. */
const WATCH: Record<Watched, { keeps: 'paid_until' | 'payment_confirmed'; account: (row: string) => string; columns: string[]; counts?: (row: string) => string }> = {
  paid_periods: { keeps: 'paid_until', account: (row) => `${row}.vpn_account_id`, columns: ['vpn_account_id', 'ends_at', 'voided_at'] },
  subscriptions: { keeps: 'payment_confirmed', account: (row) => `${row}.vpn_account_id`, columns: ['vpn_account_id'] },
  // Only a succeeded transaction counts: inserting or deleting any other changes nothing.
  transactions: { keeps: 'payment_confirmed', account: ACCOUNT_OF_TRANSACTION, columns: ['status', 'subscription_id'], counts: (row) => `${row}.status = 'succeeded'` },
};

/** An update matters when a column read changed, and (transactions) a succeeded one is involved before or after. */
function updateMatters(table: Watched, differs: (column: string) => string): string {
  const { columns, counts } = WATCH[table];
  const changed = `(${columns.map(differs).join(' OR ')})`;
  return counts ? `(${counts('OLD')} OR ${counts('NEW')}) AND ${changed}` : changed;
}

const triggerName = (table: Watched, event: string) => `${table}_keep_account_paid_state_${event}`;

async function createSqliteTriggers(knex: Knex, table: Watched): Promise<void> {
  const { keeps, account, columns, counts } = WATCH[table];
  const value = keeps === 'paid_until' ? PAID_UNTIL_OF('vpn_accounts.id') : CONFIRMED_OF('vpn_accounts.id');
  const refresh = (row: 'NEW' | 'OLD') => `UPDATE vpn_accounts SET ${keeps} = ${value} WHERE id = ${account(row)};`;
  const when = (row: 'NEW' | 'OLD') => (counts ? ` WHEN ${counts(row)}` : '');
  const changed = updateMatters(table, (column) => `OLD.${column} IS NOT NEW.${column}`);
  await knex.raw(`CREATE TRIGGER ${triggerName(table, 'insert')} AFTER INSERT ON ${table}${when('NEW')} BEGIN ${refresh('NEW')} END`);
  await knex.raw(`CREATE TRIGGER ${triggerName(table, 'delete')} AFTER DELETE ON ${table}${when('OLD')} BEGIN ${refresh('OLD')} END`);
  await knex.raw(`CREATE TRIGGER ${triggerName(table, 'update')} AFTER UPDATE OF ${columns.join(', ')} ON ${table} WHEN ${changed}
    BEGIN ${refresh('OLD')} ${refresh('NEW')} END`);
}

/** Reads an account's kept column again, under the account's row lock (see above); nothing for no account. */
async function createPostgresFunctions(knex: Knex): Promise<void> {
  for (const [keeps, value] of [['paid_until', PAID_UNTIL_OF('account')], ['payment_confirmed', CONFIRMED_OF('account')]] as const) {
    await knex.raw(`
      CREATE FUNCTION vpn_accounts_refresh_${keeps}(account varchar) RETURNS void LANGUAGE plpgsql
      -- Planned for each call: plpgsql otherwise keeps a generic plan made when the tables were small (a scan),
      -- and one statement that inserts many payments (an import) then rescans them for every row.
      SET plan_cache_mode = force_custom_plan AS $$
      DECLARE fresh vpn_accounts.${keeps}%TYPE;
      BEGIN
        IF account IS NULL THEN RETURN; END IF;
        PERFORM 1 FROM vpn_accounts WHERE id = account FOR UPDATE;
        fresh := ${value};
        UPDATE vpn_accounts SET ${keeps} = fresh WHERE id = account AND ${keeps} IS DISTINCT FROM fresh;
      END $$`);
  }
}

async function createPostgresTriggers(knex: Knex, table: Watched): Promise<void> {
  const { keeps, account, columns, counts } = WATCH[table];
  const fn = `${table}_keep_account_paid_state`;
  const refresh = (row: 'NEW' | 'OLD') => `PERFORM vpn_accounts_refresh_${keeps}(${account(row)});`;
  const matters = (row: 'NEW' | 'OLD') => (counts ? counts(row) : 'true');
  await knex.raw(`
    CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' OR (TG_OP = 'DELETE' AND ${matters('OLD')}) THEN ${refresh('OLD')} END IF;
      IF TG_OP = 'UPDATE' OR (TG_OP = 'INSERT' AND ${matters('NEW')}) THEN ${refresh('NEW')} END IF;
      RETURN NULL;
    END $$`);
  const changed = updateMatters(table, (column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`);
  await knex.raw(`CREATE TRIGGER ${triggerName(table, 'insert_delete')} AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  // An update that changes none of the columns read (most of them: metadata, timestamps) costs nothing more.
  await knex.raw(`CREATE TRIGGER ${triggerName(table, 'update')} AFTER UPDATE OF ${columns.join(', ')} ON ${table} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION ${fn}()`);
}

export async function down(knex: Knex): Promise<void> {
  const postgres = dialectOf(knex) === 'postgres';
  for (const table of PAID_STATE_TABLES) {
    if (postgres) {
      for (const event of ['insert_delete', 'update']) await knex.raw(`DROP TRIGGER ${triggerName(table, event)} ON ${table}`);
      await knex.raw(`DROP FUNCTION ${table}_keep_account_paid_state()`);
    } else {
      for (const event of ['insert', 'delete', 'update']) await knex.raw(`DROP TRIGGER ${triggerName(table, event)}`);
    }
  }
  if (postgres) for (const keeps of ['paid_until', 'payment_confirmed']) await knex.raw(`DROP FUNCTION vpn_accounts_refresh_${keeps}(varchar)`);
  // ALTER TABLE … DROP COLUMN in place (SQLite 3.35+): knex's drop rebuilds the table on SQLite, which would lose its triggers (025, 026).
  for (const column of ['paid_until', 'payment_confirmed']) await knex.raw(`ALTER TABLE vpn_accounts DROP COLUMN ${column}`);
}
