import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../../shared/billing.js';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { SUBSCRIPTION_TRANSITIONS, subscriptionStatusAfter, type SubscriptionEvent } from '../orders/index.js';
import { createBillingRepo, type BillingRepo } from './billing.repo.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const LATER = new Date('2026-03-02T12:00:00Z');
const EVENTS: SubscriptionEvent[] = ['paid', 'renewal_failed', 'renewal_recovered', 'ended'];

describe('the subscription state table', () => {
  it('names every event, moves each status at most one way per event, and never leaves canceled', () => {
    expect([...new Set(SUBSCRIPTION_TRANSITIONS.map((t) => t.event))].sort()).toEqual([...EVENTS].sort());
    for (const event of EVENTS) {
      const froms = SUBSCRIPTION_TRANSITIONS.filter((t) => t.event === event).map((t) => t.from);
      expect(new Set(froms).size, event).toBe(froms.length);
      expect(subscriptionStatusAfter('canceled', event), event).toBe('canceled');
    }
    expect(subscriptionStatusAfter('incomplete', 'renewal_recovered')).toBe('incomplete');
    expect(subscriptionStatusAfter('incomplete', 'paid')).toBe('active');
  });
});

describe.each(TEST_DATABASES)('subscription status changes in the repository (%s)', (kind) => {
  let database: TestDatabase;
  let repo: BillingRepo;
  const userId = randomUUID();
  const planId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    repo = createBillingRepo(database.db);
    await database.db('user_profiles').insert({ id: userId, email: `subscription-states-${kind}@example.com`, created_at: NOW, updated_at: NOW });
    await database.db('plans').insert({ id: planId, name: 'Plan', days: 30, data_limit: 0, price: 499, created_at: NOW, updated_at: NOW });
  });
  afterAll(async () => database?.destroy());

  /** A recurring subscription in `status` (set directly: the fixture, not a change under test). */
  async function subscriptionIn(status: SubscriptionStatus): Promise<string> {
    const id = randomUUID();
    await database.db.transaction((trx) =>
      repo.insertCheckout(
        {
          subscription: {
            id,
            userId,
            vpnAccountId: null,
            providerId: null,
            planId,
            billing: 'recurring',
            metadata: { plan_id: planId, plan_name: 'Plan', price: 499, kind: 'purchase', days: 30, data_limit: 0, locations: 'all' },
          },
          transaction: { id: randomUUID(), amount: 499, currency: 'usd' },
        },
        NOW,
        trx,
      ),
    );
    await database.db('subscriptions').where({ id }).update({ status });
    return id;
  }

  it('applies each event by the table to whatever status the row has, in the same UPDATE as the other fields', async () => {
    for (const event of EVENTS) {
      for (const from of SUBSCRIPTION_STATUSES) {
        const id = await subscriptionIn(from);
        await database.db.transaction((trx) => repo.updateSubscription(id, { event, cancelAtPeriodEnd: true }, LATER, trx));
        const after = await repo.findSubscription(id);
        const listed = SUBSCRIPTION_TRANSITIONS.find((t) => t.from === from && t.event === event);
        expect(after?.status, `${event} from ${from}`).toBe(listed ? listed.to : from);
        expect(after?.status).toBe(subscriptionStatusAfter(from, event));
        expect(after?.cancelAtPeriodEnd).toBe(true);
      }
    }
  });

  it('leaves the status alone when no event is named', async () => {
    const id = await subscriptionIn('past_due');
    await repo.updateSubscription(id, { cancelAtPeriodEnd: true }, LATER);
    expect((await repo.findSubscription(id))?.status).toBe('past_due');
  });
});
