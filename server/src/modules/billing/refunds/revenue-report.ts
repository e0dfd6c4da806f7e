import type { AdminRevenue, ProviderRevenue } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import { toDate } from '../../../db/values.js';
import type { Clock } from '../../../lib/clock.js';
import { METHOD_OF_PROVIDER } from '../provider-accounts/payment-providers.repo.js';
import { DAY_MS } from '../../../../../shared/constants.js';

/** Payments that took money: paid, and those refunded or disputed since (their refunds are counted apart). */
const TOOK_MONEY = ['succeeded', 'refunded', 'disputed'];

/**
 * The admin's revenue per provider and currency (Admin → Payments): what each provider took over the last days,
 * what was refunded of it, and the net. Orders paid from the balance took no money (their top-up did).
 */
export function createRevenueReport(deps: { db: Db; clock: Clock }) {
  return {
    /** When each provider (by name) last took a payment that went through. */
    async lastPaidByProvider(): Promise<Map<string, Date>> {
      const rows = await deps
        .db('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .join('payment_providers as pp', 'pp.id', 's.provider_id')
        .whereIn('t.status', TOOK_MONEY)
        .groupBy('pp.name')
        .select('pp.name as provider')
        .max({ last: 't.created_at' });
      return new Map(rows.map((row: Record<string, unknown>) => [row.provider as string, toDate(row.last)]));
    },

    async byProvider(days: number): Promise<AdminRevenue> {
      const since = new Date(deps.clock().getTime() - days * DAY_MS);
      const rows = await deps
        .db('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .join('payment_providers as pp', 'pp.id', 's.provider_id')
        .whereIn('t.status', TOOK_MONEY)
        .where('t.amount', '>', 0)
        .where('t.created_at', '>=', since)
        .groupBy('pp.name', 't.currency')
        .select('pp.name as provider', 't.currency')
        .count({ payments: '*' })
        .sum({ amount: 't.amount' })
        .sum({ refunded: 't.amount_refunded' });
      const report: ProviderRevenue[] = rows.flatMap((row: Record<string, unknown>) => {
        const method = METHOD_OF_PROVIDER[row.provider as string];
        if (!method) return [];
        const amount = Number(row.amount ?? 0);
        const refunded = Number(row.refunded ?? 0);
        return [{ method, currency: row.currency as string, payments: Number(row.payments), amount, refunded, net: amount - refunded }];
      });
      report.sort((a, b) => b.net - a.net || a.method.localeCompare(b.method) || a.currency.localeCompare(b.currency));
      return { days, since: since.toISOString(), rows: report };
    },
  };
}

export type RevenueReport = ReturnType<typeof createRevenueReport>;
