import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { createPlansRepo } from '../../modules/plans/plans.repo.js';
import * as planPricing from './003-plan-pricing.js';

describe.each(TEST_DATABASES)('migration 003-plan-pricing on a database with plans (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    await planPricing.down(database.db); // back to the plans table as it was before
  });
  afterEach(async () => {
    await database.destroy();
  });

  const oldPlan = (id: string, metadata: object = {}) => ({
    id, name: id, days: 30, data_limit: 1024 ** 3, locations: 'all', price: 499, status: 'active',
    metadata: JSON.stringify(metadata), created_at: new Date(), updated_at: new Date(),
  });

  it('keeps existing plans listed, without tier or features, and hides the trial plans', async () => {
    const { db } = database;
    await db('plans').insert([oldPlan('paid'), oldPlan('flagged-trial', { is_trial: true }), oldPlan('setting-trial')]);
    await db('settings').insert({ id: 'app_config', value: JSON.stringify({ trial_plan_id: 'setting-trial' }), updated_at: new Date() });

    await planPricing.up(db);

    const plans = Object.fromEntries((await createPlansRepo(db).listAll()).map((plan) => [plan.id, plan]));
    expect(plans.paid).toMatchObject({ tier: null, features: [], mostPopular: false, sortOrder: 0, public: true, price: 499 });
    expect(plans['flagged-trial']).toMatchObject({ public: false, isTrial: true });
    expect(plans['setting-trial']).toMatchObject({ public: false });
  });
});
