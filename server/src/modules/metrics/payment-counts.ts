import type { Db } from '../../db/knex.js';
import type { DomainEvents } from '../../domain-events.js';
import type { Metrics } from './metrics.js';

/**
 * Counts payments that succeed and payments refunded in full, by provider, once their transaction commits (a status
 * change rolled back is not counted). Nothing here can fail the payment: the listener only waits for the commit,
 * and the provider is read afterwards, outside the transaction; a count that cannot be made is dropped.
 */
export function countPayments(metrics: Metrics, db: Db) {
  return ({ transaction, event, trx }: DomainEvents['transaction.transitioned']): void => {
    const count = event === 'paid' || event === 'paid_after_review' ? metrics.payment : event === 'refunded' ? metrics.refund : undefined;
    if (!count) return;
    const committed = (trx as { executionPromise?: Promise<unknown> }).executionPromise ?? Promise.resolve();
    committed.then(async () => count(transaction.providerName ?? (await providerOf(db, transaction.subscriptionId)))).catch(() => undefined);
  };
}

async function providerOf(db: Db, subscriptionId: string): Promise<string> {
  const row: { name: string | null } | undefined = await db('subscriptions as s')
    .leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
    .where('s.id', subscriptionId)
    .first('pp.name as name');
  return row?.name ?? 'none';
}
