import type { Knex } from 'knex';

/**
 * The paid-period ledger (issue 25, item 1): one row per payment that bought time on an account (the
 * transaction is unique), written with the payment's status change under the account's lock. The
 * account's paid end is the latest end of its periods that are not void; a refund or a lost dispute voids
 * the period its payment bought.
 *
 * Backfilled from what held this before: a one-off subscription's current period (moved back already
 * when an earlier one was refunded), and a recurring invoice's period in its transaction's metadata
 * (never moved: the refund only shortened the subscription's period, so the same move is made here).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('paid_periods', (t) => {
    t.string('id', 36).primary();
    /** Null only while a purchase paid after its waiting account was removed waits for a new one (see fulfilment). */
    t.string('vpn_account_id', 36).references('id').inTable('vpn_accounts').onDelete('SET NULL');
    t.string('transaction_id', 36).notNullable().unique().references('id').inTable('transactions').onDelete('CASCADE');
    t.string('subscription_id', 36).notNullable().references('id').inTable('subscriptions').onDelete('CASCADE');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.timestamp('voided_at', { useTz: true });
    /** refunded, dispute_lost. */
    t.string('void_reason', 32);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['vpn_account_id', 'ends_at'], 'paid_periods_account_ends_at_index');
    t.index(['subscription_id'], 'paid_periods_subscription_id_index');
  });
  await backfill(knex);
}

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(value as string | number);
const parse = (value: unknown): Record<string, unknown> => (typeof value === 'string' ? JSON.parse(value) : ((value ?? {}) as Record<string, unknown>));

interface Backfilled {
  id: string; vpn_account_id: string | null; transaction_id: string; subscription_id: string;
  starts_at: Date; ends_at: Date; voided_at: Date | null; void_reason: string | null; created_at: Date; updated_at: Date;
}

async function backfill(knex: Knex): Promise<void> {
  const rows: Array<Record<string, unknown>> = await knex('transactions as t').join('subscriptions as s', 's.id', 't.subscription_id')
    .whereIn('t.status', ['succeeded', 'disputed', 'refunded'])
    .select('t.id', 't.status', 't.metadata', 't.updated_at', 't.created_at', 's.id as subscription_id', 's.vpn_account_id', 's.billing',
      's.current_period_start', 's.current_period_end')
    .orderBy('t.created_at', 'asc');
  const periods: Backfilled[] = [];
  for (const row of rows) {
    const metadata = parse(row.metadata);
    const recurring = row.billing === 'recurring';
    const start = recurring ? toDate(metadata.period_start) : toDate(row.current_period_start);
    const end = recurring ? toDate(metadata.period_end) : toDate(row.current_period_end);
    // Never paid for time (a payment under review that was refunded): nothing to record.
    if (!start || !end) continue;
    const voided = row.status === 'refunded';
    const dispute = metadata.dispute as { status?: string } | undefined;
    periods.push({
      id: row.id as string, vpn_account_id: (row.vpn_account_id as string | null) ?? null, transaction_id: row.id as string,
      subscription_id: row.subscription_id as string, starts_at: start, ends_at: end,
      voided_at: voided ? toDate(row.updated_at) : null, void_reason: voided ? (dispute?.status === 'lost' ? 'dispute_lost' : 'refunded') : null,
      created_at: toDate(row.created_at)!, updated_at: toDate(row.created_at)!,
    });
  }
  // A refunded invoice shortened its subscription's period: its later invoices of that subscription move back as well.
  for (const voided of periods.filter((p) => p.voided_at && rows.find((r) => r.id === p.transaction_id)?.billing === 'recurring')) {
    const length = voided.ends_at.getTime() - voided.starts_at.getTime();
    for (const later of periods) {
      if (later.subscription_id !== voided.subscription_id || later.voided_at || later.starts_at < voided.ends_at) continue;
      later.starts_at = new Date(later.starts_at.getTime() - length);
      later.ends_at = new Date(later.ends_at.getTime() - length);
    }
  }
  for (let i = 0; i < periods.length; i += 100) await knex('paid_periods').insert(periods.slice(i, i + 100));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('paid_periods');
}
