import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_STATUSES, type TransactionStatus } from '../../../../shared/billing.js';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import type { Db } from '../../db/knex.js';
import { createBillingRepo, type BillingRepo } from './billing.repo.js';
import { sourcesOf, targetOf, TRANSACTION_TRANSITIONS, type TransactionEvent } from '../orders/index.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const LATER = new Date('2026-03-02T12:00:00Z');

/** Each repository method that changes a status, with the events it names. */
const CHANGES: Array<{ name: string; events: TransactionEvent[]; run(repo: BillingRepo, id: string, trx: Db): Promise<boolean> }> = [
  {
    name: 'markTransactionSucceeded',
    events: ['paid'],
    run: (r, id, trx) => r.markTransactionSucceeded(id, { checkoutId: `cs_${id}`, paymentRef: `pi_${id}` }, LATER, trx),
  },
  {
    name: 'markTransactionSucceeded (fromReview)',
    events: ['paid', 'paid_after_review'],
    run: (r, id, trx) => r.markTransactionSucceeded(id, { checkoutId: `cs_${id}`, paymentRef: `pi_${id}`, fromReview: true }, LATER, trx),
  },
  { name: 'markInvoicePaid', events: ['paid'], run: (r, id, trx) => r.markInvoicePaid(id, { invoiceId: `in_${id}`, paymentRef: `pi_${id}` }, LATER, trx) },
  {
    name: 'recordCryptoProgress',
    events: ['crypto_progress'],
    run: (r, id, trx) => r.recordCryptoProgress(id, { status: 'Processing', additionalStatus: 'None', amountDue: 0, amountPaid: 499 }, LATER, trx),
  },
  {
    name: 'recordCryptoProgress (reopen)',
    events: ['crypto_progress', 'late_payment_seen'],
    run: (r, id, trx) =>
      r.recordCryptoProgress(id, { status: 'Processing', additionalStatus: 'PaidLate', amountDue: 0, amountPaid: 499 }, LATER, trx, { reopen: true }),
  },
  { name: 'markTransactionFailed', events: ['failed'], run: (r, id, trx) => r.markTransactionFailed(id, 'declined', LATER, trx) },
  { name: 'markTransactionCancelled', events: ['cancelled'], run: (r, id, trx) => r.markTransactionCancelled(id, 'Payment cancelled', LATER, trx) },
  {
    name: 'markTransactionNeedsReview',
    events: ['held_for_review'],
    run: (r, id, trx) =>
      r.markTransactionNeedsReview(
        id,
        { checkoutId: `cs_${id}`, paymentRef: `pi_${id}`, review: { reason: 'amount_mismatch', amount_paid: 1, currency_paid: 'usd' } },
        LATER,
        trx,
      ),
  },
  { name: 'markTransactionRefunded', events: ['refunded'], run: (r, id, trx) => r.markTransactionRefunded(id, { amountRefunded: 499 }, LATER, trx) },
  {
    name: 'markTransactionRefunded (dispute lost)',
    events: ['dispute_lost'],
    run: (r, id, trx) => r.markTransactionRefunded(id, { amountRefunded: 499, dispute: { id: 'dp_1', status: 'lost' } }, LATER, trx),
  },
  { name: 'markTransactionDisputed', events: ['disputed'], run: (r, id, trx) => r.markTransactionDisputed(id, { id: 'dp_1', status: 'open' }, LATER, trx) },
  { name: 'markDisputeWon', events: ['dispute_won'], run: (r, id, trx) => r.markDisputeWon(id, 'dp_1', LATER, trx) },
];

const listed = (from: TransactionStatus, to: TransactionStatus) => TRANSACTION_TRANSITIONS.some((t) => t.from === from && t.to === to);

describe.each(TEST_DATABASES)('the transaction state machine (%s)', (kind) => {
  let database: TestDatabase;
  let repo: BillingRepo;
  const userId = randomUUID();
  const planId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    repo = createBillingRepo(database.db);
    await database.db('user_profiles').insert({ id: userId, email: `states-${kind}@example.com`, created_at: NOW, updated_at: NOW });
    await database.db('plans').insert({ id: planId, name: 'Plan', days: 30, data_limit: 0, price: 499, created_at: NOW, updated_at: NOW });
  });
  afterAll(async () => database?.destroy());

  /** A transaction in `status` (set directly: the fixture, not a transition under test). */
  async function transactionIn(status: TransactionStatus): Promise<string> {
    const id = randomUUID();
    await database.db.transaction((trx) =>
      repo.insertCheckout(
        {
          subscription: {
            id: randomUUID(),
            userId,
            vpnAccountId: null,
            providerId: null,
            planId,
            billing: 'one_off',
            metadata: { plan_id: planId, plan_name: 'Plan', price: 499, kind: 'purchase', days: 30, data_limit: 0, locations: 'all' },
          },
          transaction: { id, amount: 499, currency: 'usd' },
        },
        NOW,
        trx,
      ),
    );
    await database.db('transactions').where({ id }).update({ status });
    return id;
  }

  const rowOf = async (id: string) => {
    const row = await database.db('transactions').where({ id }).first();
    return { ...row, updated_at: new Date(row.updated_at).getTime() };
  };

  it('each event leads to one status, and each status can be reached or left only as the table says', () => {
    for (const transition of TRANSACTION_TRANSITIONS) expect(targetOf(transition.event)).toBe(transition.to);
    const exercised = new Set(CHANGES.flatMap((change) => change.events));
    expect([...new Set(TRANSACTION_TRANSITIONS.map((t) => t.event))].filter((event) => !exercised.has(event))).toEqual([]);
  });

  it('every listed transition happens through the repository, and every other one changes no row', async () => {
    const seen = new Set<string>();
    for (const change of CHANGES) {
      const to = targetOf(change.events[0]!);
      const allowed = new Set(change.events.flatMap(sourcesOf));
      for (const from of TRANSACTION_STATUSES) {
        const id = await transactionIn(from);
        const before = await rowOf(id);
        const changed = await database.db.transaction((trx) => change.run(repo, id, trx));
        const after = await rowOf(id);
        const label = `${change.name}: ${from} → ${to}`;
        if (allowed.has(from)) {
          expect(changed, label).toBe(true);
          expect(after.status, label).toBe(to);
          expect(listed(from, to), label).toBe(true);
          for (const event of change.events) if (sourcesOf(event).includes(from)) seen.add(`${from}>${to}>${event}`);
        } else {
          expect(changed, label).toBe(false);
          expect(after, label).toEqual(before);
        }
      }
    }
    // Every row of the table was made to happen by some method.
    expect(TRANSACTION_TRANSITIONS.filter((t) => !seen.has(`${t.from}>${t.to}>${t.event}`))).toEqual([]);
  });

  it('a checkout the customer cancelled is its own status, reached only from pending, and can still be paid after all', async () => {
    expect(TRANSACTION_STATUSES).toContain('cancelled');
    expect(sourcesOf('cancelled')).toEqual(['pending']);
    const id = await transactionIn('pending');
    expect(await database.db.transaction((trx) => repo.markTransactionCancelled(id, 'Payment cancelled', LATER, trx))).toBe(true);
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled' });
    // A second close (the expiry job, a late failure event) does not turn it into a failure.
    expect(await database.db.transaction((trx) => repo.markTransactionFailed(id, 'expired', LATER, trx))).toBe(false);
    expect(await rowOf(id)).toMatchObject({ status: 'cancelled' });
    expect(await database.db.transaction((trx) => repo.markTransactionSucceeded(id, { checkoutId: `cs_${id}`, paymentRef: `pi_${id}` }, LATER, trx))).toBe(
      true,
    );
    expect(await rowOf(id)).toMatchObject({ status: 'succeeded' });
  });

  it('a refunded payment stays refunded, whatever is tried on it', async () => {
    for (const change of CHANGES) {
      const id = await transactionIn('refunded');
      expect(await database.db.transaction((trx) => change.run(repo, id, trx)), change.name).toBe(false);
      expect((await rowOf(id)).status).toBe('refunded');
    }
  });
});
