import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { createRetentionRows } from '../../../test/retention-rows.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { PURGE, PURGE_OLD_ROWS } from './purge-old-rows.js';
import { addSeconds } from '../../lib/clock.js';

describe.each(TEST_DATABASES)('wired purge (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('scheduleRecurringJobs queues the purge once; the worker runs it and it comes back tomorrow', async () => {
    await t.app.services.scheduleRecurringJobs();
    await t.app.services.scheduleRecurringJobs();
    const rows = createRetentionRows(env.database.db, t.clock.now());
    const old = await rows.accountLog(31);
    const kept = await rows.accountLog(1);
    const periodic = await env.database
      .db('jobs')
      .whereIn('type', ['sweep_stuck_accounts', 'reconcile_subscriptions', 'send_renewal_reminders'])
      .update({ status: 'failed', updated_at: rows.day(-400) });
    expect(periodic).toBe(3);
    while (await t.app.jobWorker.runOnce()) {
      /* every due job */
    }
    expect(await rows.remaining('vpn_account_logs', [old, kept])).toEqual([kept]);
    const jobs = await env.database.db('jobs').where({ type: PURGE_OLD_ROWS });
    expect(jobs).toHaveLength(1);
    const job = (await t.app.services.jobs.findById(jobs[0].id))!;
    expect(job).toMatchObject({ status: 'queued', runAt: addSeconds(t.clock.now(), PURGE.intervalSeconds) });
    expect(await env.database.db('jobs').whereIn('type', ['sweep_stuck_accounts', 'reconcile_subscriptions', 'send_renewal_reminders'])).toHaveLength(3);
  });
});
