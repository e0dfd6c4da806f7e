import type { Knex } from 'knex';
import type { Db } from '../../../db/knex.js';
import { toDate } from '../../../db/values.js';
import type { PaidPeriodRecord } from './paid-periods.repo.js';

/**
 * Plan changes in the paid-period ledger (issue 55): the periods a change credited end when it is made, each keeping
 * the span it had, and get it back when the change is refunded. Spread into the ledger's repository.
 */
export function periodCuts(periodsOf: (conn: Db) => Knex.QueryBuilder, toPeriod: (row: Record<string, unknown>) => PaidPeriodRecord) {
  return {
    /**
     * A plan change paid by `byTransactionId`: the account's periods that still count and end after `at` end at `at`
     * (one not begun yet ends as it begins, at `at`), once, each keeping the span it had. Returns them as they were.
     */
    async cutAt(vpnAccountId: string, at: Date, byTransactionId: string, now: Date, trx: Db): Promise<PaidPeriodRecord[]> {
      const rows = (await periodsOf(trx)
        .where('p.vpn_account_id', vpnAccountId)
        .whereNull('p.voided_at')
        .whereNull('p.cut_at')
        .where('p.ends_at', '>', at)) as Array<Record<string, unknown>>;
      const cut: PaidPeriodRecord[] = rows.map(toPeriod);
      for (const period of cut) {
        await trx('paid_periods')
          .where({ id: period.id })
          .update({
            starts_at: period.startsAt < at ? period.startsAt : at,
            ends_at: at,
            cut_at: now,
            cut_by_transaction_id: byTransactionId,
            starts_at_before_cut: period.startsAt,
            ends_at_before_cut: period.endsAt,
            updated_at: now,
          });
      }
      return cut;
    },

    /**
     * The plan change paid by `byTransactionId` taken back (refunded): the periods it cut count as they did before.
     * Returns the time they got back (ms).
     */
    async restoreCut(byTransactionId: string, now: Date, trx: Db): Promise<number> {
      const rows: Array<{ id: string; starts_at: unknown; ends_at: unknown; starts_at_before_cut: unknown; ends_at_before_cut: unknown }> = await trx(
        'paid_periods',
      )
        .where({ cut_by_transaction_id: byTransactionId })
        .select('id', 'starts_at', 'ends_at', 'starts_at_before_cut', 'ends_at_before_cut');
      let restoredMs = 0;
      for (const row of rows) {
        restoredMs +=
          toDate(row.ends_at_before_cut).getTime() -
          toDate(row.starts_at_before_cut).getTime() -
          (toDate(row.ends_at).getTime() - toDate(row.starts_at).getTime());
        await trx('paid_periods')
          .where({ id: row.id })
          .update({
            starts_at: toDate(row.starts_at_before_cut),
            ends_at: toDate(row.ends_at_before_cut),
            cut_at: null,
            cut_by_transaction_id: null,
            starts_at_before_cut: null,
            ends_at_before_cut: null,
            updated_at: now,
          });
      }
      return restoredMs;
    },
  };
}
