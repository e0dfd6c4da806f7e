import type { PlanBilling } from '../../../../../shared/plans.js';
import type { Db } from '../../../db/knex.js';
import { toDate, toDateOrNull } from '../../../db/values.js';
import { periodCuts } from './period-cuts.js';

/** Why a period no longer counts: its payment was refunded in full, or a dispute of it was lost. */
export type PeriodVoidReason = 'refunded' | 'dispute_lost';

/** The time one payment bought for an account. */
export interface PaidPeriodRecord {
  id: string;
  vpnAccountId: string | null;
  transactionId: string;
  subscriptionId: string;
  /** How the payment was made: a one-off payment, or an invoice of a recurring subscription. */
  billing: PlanBilling;
  startsAt: Date;
  endsAt: Date;
  voidedAt: Date | null;
  voidReason: PeriodVoidReason | null;
  createdAt: Date;
}

export type NewPaidPeriod = Omit<PaidPeriodRecord, 'voidedAt' | 'voidReason' | 'createdAt'>;

/** What an insert did: `overlaps` carries the period of the other kind that it would have overlapped. */
export type PeriodInsert = { kind: 'inserted' } | { kind: 'exists'; period: PaidPeriodRecord } | { kind: 'overlaps'; period: PaidPeriodRecord };

const COLUMNS = [
  'p.id',
  'p.vpn_account_id',
  'p.transaction_id',
  'p.subscription_id',
  'p.starts_at',
  'p.ends_at',
  'p.voided_at',
  'p.void_reason',
  'p.created_at',
  's.billing',
];

function toPeriod(row: Record<string, unknown>): PaidPeriodRecord {
  return {
    id: row.id as string,
    vpnAccountId: (row.vpn_account_id as string | null) ?? null,
    transactionId: row.transaction_id as string,
    subscriptionId: row.subscription_id as string,
    billing: row.billing === 'recurring' ? 'recurring' : 'one_off',
    startsAt: toDate(row.starts_at),
    endsAt: toDate(row.ends_at),
    voidedAt: toDateOrNull(row.voided_at),
    voidReason: (row.void_reason as PeriodVoidReason | null) ?? null,
    createdAt: toDate(row.created_at),
  };
}

/**
 * The paid-period ledger: the only record of what an account has paid for. Each row is written in the
 * database transaction that changes its payment's status, with the account's row locked
 * (billing.lockAccount), so what one payment reads of the ledger is never changed under it by another.
 */
export function createPaidPeriodsRepo(db: Db) {
  const periods = (conn: Db) => conn('paid_periods as p').join('subscriptions as s', 's.id', 'p.subscription_id').select(COLUMNS);

  async function overlapping(period: Pick<NewPaidPeriod, 'vpnAccountId' | 'billing' | 'startsAt' | 'endsAt'>, trx: Db): Promise<PaidPeriodRecord | undefined> {
    if (!period.vpnAccountId) return undefined;
    const row = await periods(trx)
      .where('p.vpn_account_id', period.vpnAccountId)
      .whereNull('p.voided_at')
      .whereNot('s.billing', period.billing)
      .where('p.starts_at', '<', period.endsAt)
      .where('p.ends_at', '>', period.startsAt)
      .orderBy('p.starts_at', 'asc')
      .first();
    return row && toPeriod(row);
  }

  return {
    ...periodCuts(periods, toPeriod),

    /** The end of the account's latest period that still counts (null: nothing paid, or all of it given back). */
    async latestEnd(vpnAccountId: string, trx: Db = db): Promise<Date | null> {
      const row = await trx('paid_periods').where({ vpn_account_id: vpnAccountId }).whereNull('voided_at').max({ latest: 'ends_at' }).first();
      return toDateOrNull(row?.latest);
    },

    async forTransaction(transactionId: string, trx: Db = db): Promise<PaidPeriodRecord | undefined> {
      const row = await periods(trx).where('p.transaction_id', transactionId).first();
      return row && toPeriod(row);
    },

    /** Every period of the account, void ones too, oldest first. */
    async listForAccount(vpnAccountId: string, trx: Db = db): Promise<PaidPeriodRecord[]> {
      const rows = await periods(trx)
        .where('p.vpn_account_id', vpnAccountId)
        .orderBy([
          { column: 'p.starts_at', order: 'asc' },
          { column: 'p.created_at', order: 'asc' },
        ]);
      return rows.map(toPeriod);
    },

    /**
     * A period of the other kind (one-off or recurring) that still counts and overlaps this span on the
     * same account: the same days would be paid twice. Read under the account's lock.
     */
    overlapping,

    /**
     * Records the period a payment bought, once per payment (the transaction is unique). Refused when it
     * overlaps a period of the other kind (see `overlapping`); the caller holds the account's lock.
     */
    async insert(period: NewPaidPeriod, now: Date, trx: Db): Promise<PeriodInsert> {
      const existing = await periods(trx).where('p.transaction_id', period.transactionId).first();
      if (existing) return { kind: 'exists', period: toPeriod(existing) };
      const overlap = await overlapping(period, trx);
      if (overlap) return { kind: 'overlaps', period: overlap };
      await trx('paid_periods')
        .insert({
          id: period.id,
          vpn_account_id: period.vpnAccountId,
          transaction_id: period.transactionId,
          subscription_id: period.subscriptionId,
          starts_at: period.startsAt,
          ends_at: period.endsAt,
          created_at: now,
          updated_at: now,
        })
        .onConflict('transaction_id')
        .ignore();
      return { kind: 'inserted' };
    },

    /** The period a payment bought stops counting, once; returns it when this call voided it. */
    async void(transactionId: string, reason: PeriodVoidReason, now: Date, trx: Db): Promise<PaidPeriodRecord | undefined> {
      const changed = await trx('paid_periods')
        .where({ transaction_id: transactionId })
        .whereNull('voided_at')
        .update({ voided_at: now, void_reason: reason, updated_at: now });
      if (changed === 0) return undefined;
      const row = await periods(trx).where('p.transaction_id', transactionId).first();
      return row && toPeriod(row);
    },

    /**
     * The account's periods that still count and start at or after `from` move back by `lengthMs`: those
     * chained after a period that was voided, so the account loses exactly that period. Returns them as moved.
     */
    async moveBack(vpnAccountId: string, from: Date, lengthMs: number, now: Date, trx: Db): Promise<PaidPeriodRecord[]> {
      const rows = await periods(trx).where('p.vpn_account_id', vpnAccountId).whereNull('p.voided_at').where('p.starts_at', '>=', from);
      const moved = rows
        .map(toPeriod)
        .map((period) => ({ ...period, startsAt: new Date(period.startsAt.getTime() - lengthMs), endsAt: new Date(period.endsAt.getTime() - lengthMs) }));
      for (const period of moved)
        await trx('paid_periods').where({ id: period.id }).update({ starts_at: period.startsAt, ends_at: period.endsAt, updated_at: now });
      return moved;
    },

    /** A purchase paid after its waiting account was removed gets a new account: its period goes with it. */
    async assignAccount(subscriptionId: string, vpnAccountId: string, now: Date, trx: Db): Promise<void> {
      await trx('paid_periods')
        .where({ subscription_id: subscriptionId })
        .whereNull('vpn_account_id')
        .update({ vpn_account_id: vpnAccountId, updated_at: now });
    },
  };
}

export type PaidPeriodsRepo = ReturnType<typeof createPaidPeriodsRepo>;
