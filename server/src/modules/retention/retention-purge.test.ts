import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { createRetentionRows, type RetentionRows } from '../../../test/retention-rows.js';
import { createPurgeOldRowsHandler, PURGE, PURGE_OLD_ROWS } from './purge-old-rows.js';
import { schedulePeriodicJob } from '../../jobs/periodic-jobs.js';
import { createJobsRepo } from '../../jobs/jobs.repo.js';
import { createJobWorker } from '../../jobs/worker.js';
import { addSeconds } from '../../lib/clock.js';
import { createSettingsRepo } from '../settings/settings.repo.js';
import { createSettingsService, type SettingsService } from '../settings/settings.service.js';
import { createRetentionPurge } from './retention-purge.js';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const PERIODIC = ['sweep_stuck_accounts', PURGE_OLD_ROWS];
const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(TEST_DATABASES)('purge of rows past their retention (%s)', (kind) => {
  let database: TestDatabase;
  let rows: RetentionRows;
  let settings: SettingsService;

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    rows = createRetentionRows(database.db, NOW);
    settings = createSettingsService({
      settings: createSettingsRepo(database.db),
      cardPublicState: async () => ({ ready: false, publishableKey: null }),
      planExists: async () => false,
      trialOnSale: async () => false,
      paymentMethods: async () => [],
      publicUrl: new URL('http://localhost:3000'),
    });
  });
  afterEach(async () => {
    await database.destroy();
  });

  const purge = (options: { batchRows?: number; budgetMs?: number } = {}) =>
    createRetentionPurge({ db: database.db, settings, clock: () => NOW, periodicJobKeys: PERIODIC, ...options }).purge();

  it('deletes sign-in codes, sessions with their tokens, and provisioning logs past 30 days by default, and keeps newer ones', async () => {
    const user = await rows.user();
    const oldCodes = [await rows.otpCode({ expiresDaysAgo: 31 }), await rows.otpCode({ expiresDaysAgo: 31, consumedDaysAgo: 31 })];
    const newCodes = [await rows.otpCode({ expiresDaysAgo: 29, consumedDaysAgo: 29 }), await rows.otpCode({ expiresDaysAgo: -0.005 })];
    const expired = await rows.session(user, { expiresIn: -31 });
    const signedOut = await rows.session(user, { expiresIn: 10, revokedIn: -31 });
    const oldTokens = [await rows.refreshToken(expired, { expiresIn: -31 }), await rows.refreshToken(signedOut, { expiresIn: 10 })];
    const newSessions = [
      await rows.session(user, { expiresIn: -29 }),
      await rows.session(user, { expiresIn: 10, revokedIn: -29 }),
      await rows.session(user, { expiresIn: 10 }),
    ];
    const oldLogs = [await rows.accountLog(31), await rows.accountLog(400)];
    const newLogs = [await rows.accountLog(29), await rows.accountLog(0)];

    const result = await purge();

    expect(await rows.remaining('otp_codes', [...oldCodes, ...newCodes])).toEqual(newCodes);
    expect(await rows.remaining('sessions', [expired, signedOut, ...newSessions])).toEqual(newSessions);
    expect(await rows.remaining('refresh_tokens', oldTokens)).toEqual([]);
    expect(await rows.remaining('vpn_account_logs', [...oldLogs, ...newLogs])).toEqual(newLogs);
    expect(await rows.remaining('user_profiles', [user])).toEqual([user]);
    expect(result).toEqual({
      deleted: {
        otp_codes: 2,
        refresh_tokens: 2,
        sessions: 2,
        webhook_events: 0,
        telegram_updates: 0,
        telegram_link_tokens: 0,
        telegram_pay_links: 0,
        kept_reversals: 0,
        jobs: 0,
        vpn_account_logs: 2,
        audit_log: 0,
      },
      more: false,
    });
  });

  it('deletes refresh tokens expired or replaced past the retention, but never one that can still be replayed', async () => {
    const session = await rows.session(await rows.user(), { expiresIn: 20 });
    const gone = [await rows.refreshToken(session, { expiresIn: -31 }), await rows.refreshToken(session, { expiresIn: -1, rotatedIn: -31 })];
    const kept = [
      // Replaced long ago but not expired: presenting it again must still find it and revoke the session.
      await rows.refreshToken(session, { expiresIn: 1, rotatedIn: -31 }),
      await rows.refreshToken(session, { expiresIn: -29, rotatedIn: -29 }),
      await rows.refreshToken(session, { expiresIn: -29 }),
      await rows.refreshToken(session, { expiresIn: 20 }),
    ];

    await purge();

    expect(await rows.remaining('refresh_tokens', [...gone, ...kept])).toEqual(kept);
  });

  it('deletes finished jobs and processed webhook ids past the retention, never a queued or running job nor a periodic job row', async () => {
    const oldJobs = [
      await rows.job({ status: 'done', updatedDaysAgo: 31 }),
      await rows.job({ status: 'failed', updatedDaysAgo: 31 }),
      await rows.job({ status: 'done', updatedDaysAgo: 31, dedupeKey: null }),
    ];
    const keptJobs = [
      await rows.job({ status: 'done', updatedDaysAgo: 29 }),
      await rows.job({ status: 'failed', updatedDaysAgo: 29 }),
      await rows.job({ status: 'queued', updatedDaysAgo: 400 }),
      await rows.job({ status: 'running', updatedDaysAgo: 400 }),
      await rows.job({ status: 'failed', updatedDaysAgo: 400, type: 'sweep_stuck_accounts', dedupeKey: 'sweep_stuck_accounts' }),
      await rows.job({ status: 'done', updatedDaysAgo: 400, type: PURGE_OLD_ROWS, dedupeKey: PURGE_OLD_ROWS }),
    ];
    const oldEvents = [await rows.webhookEvent(31), await rows.webhookEvent(365)];
    const newEvents = [await rows.webhookEvent(29), await rows.webhookEvent(0)];
    await rows.telegramUpdate(31);
    const newUpdates = [await rows.telegramUpdate(1)];
    const oldKept = [await rows.keptReversal(31)];
    const newKept = [await rows.keptReversal(29)];

    await purge();

    expect(await rows.remaining('kept_reversals', [...oldKept, ...newKept])).toEqual(newKept);

    expect(await rows.remaining('jobs', [...oldJobs, ...keptJobs])).toEqual(keptJobs);
    expect(await rows.remaining('webhook_events', [...oldEvents, ...newEvents])).toEqual(newEvents);
    const updateIds = (await database.db('telegram_updates').select('update_id')).map((row) => Number(row.update_id));
    expect(updateIds).toEqual(newUpdates);
  });

  it('follows the retention setting, but keeps webhook ids and finished jobs 30 days at least', async () => {
    await settings.updateSettings({ retentionDays: 7 }, NOW);
    const user = await rows.user();
    const gone = {
      codes: [await rows.otpCode({ expiresDaysAgo: 8 })],
      sessions: [await rows.session(user, { expiresIn: -8 })],
      logs: [await rows.accountLog(8)],
      events: [await rows.webhookEvent(31)],
      jobs: [await rows.job({ status: 'done', updatedDaysAgo: 31 })],
    };
    const kept = {
      codes: [await rows.otpCode({ expiresDaysAgo: 6 })],
      sessions: [await rows.session(user, { expiresIn: -6 })],
      logs: [await rows.accountLog(6)],
      // A redelivered payment event, or a reminder queued again, must still meet its first copy.
      events: [await rows.webhookEvent(8)],
      jobs: [await rows.job({ status: 'done', updatedDaysAgo: 8 })],
    };

    await purge();

    expect(await rows.remaining('otp_codes', [...gone.codes, ...kept.codes])).toEqual(kept.codes);
    expect(await rows.remaining('sessions', [...gone.sessions, ...kept.sessions])).toEqual(kept.sessions);
    expect(await rows.remaining('vpn_account_logs', [...gone.logs, ...kept.logs])).toEqual(kept.logs);
    expect(await rows.remaining('webhook_events', [...gone.events, ...kept.events])).toEqual(kept.events);
    expect(await rows.remaining('jobs', [...gone.jobs, ...kept.jobs])).toEqual(kept.jobs);

    await settings.updateSettings({ retentionDays: 90 }, NOW);
    const withinLonger = [await rows.webhookEvent(60), await rows.job({ status: 'done', updatedDaysAgo: 60 }), await rows.accountLog(60)];
    await purge();
    expect(await rows.remaining('webhook_events', [withinLonger[0] as string])).toHaveLength(1);
    expect(await rows.remaining('jobs', [withinLonger[1] as string])).toHaveLength(1);
    expect(await rows.remaining('vpn_account_logs', [withinLonger[2] as number])).toHaveLength(1);
  });

  it('keeps the audit log a year by default, and then by its own setting', async () => {
    const old = [await rows.auditEntry(366)];
    const yearly = [await rows.auditEntry(364), await rows.auditEntry(31)];
    const recent = [await rows.auditEntry(29)];

    await purge();
    expect(await rows.remaining('audit_log', [...old, ...yearly, ...recent])).toEqual([...yearly, ...recent]);

    await settings.updateSettings({ auditRetentionDays: 30, retentionDays: 3650 }, NOW);
    await purge();
    expect(await rows.remaining('audit_log', [...yearly, ...recent])).toEqual(recent);
  });

  it('deletes in bounded batches until nothing is left', async () => {
    const logs = [];
    for (let i = 0; i < 5; i += 1) logs.push(await rows.accountLog(40));
    const kept = await rows.accountLog(1);

    const result = await purge({ batchRows: 2 });

    expect(result.more).toBe(false);
    expect(result.deleted.vpn_account_logs).toBe(5);
    expect(await rows.remaining('vpn_account_logs', [...logs, kept])).toEqual([kept]);
  });

  it('stops after the batch that uses up its time budget and says there is more', async () => {
    const logs = [];
    for (let i = 0; i < 5; i += 1) logs.push(await rows.accountLog(40));
    const audit = await rows.auditEntry(400);

    const result = await purge({ batchRows: 2, budgetMs: 0 });

    expect(result).toMatchObject({ more: true, deleted: { vpn_account_logs: 2 } });
    expect(await rows.remaining('vpn_account_logs', logs)).toHaveLength(3);
    expect(await rows.remaining('audit_log', [audit])).toEqual([audit]); // not reached yet
  });

  describe('the daily job', () => {
    const runJob = async (purgeOptions: { batchRows?: number; budgetMs?: number } = {}) => {
      const jobs = createJobsRepo(database.db);
      const retention = createRetentionPurge({ db: database.db, settings, clock: () => NOW, periodicJobKeys: PERIODIC, ...purgeOptions });
      const worker = createJobWorker({
        repo: jobs,
        clock: () => NOW,
        log: quietLog,
        handlers: { [PURGE_OLD_ROWS]: createPurgeOldRowsHandler({ purge: retention, clock: () => NOW, log: quietLog }) },
      });
      expect(await worker.runOnce()).toBe(true);
      return (await database.db('jobs').where({ type: PURGE_OLD_ROWS }))[0]!.id as string;
    };

    it('is scheduled once, purges, and puts itself back in the queue for the next day', async () => {
      const jobs = createJobsRepo(database.db);
      await schedulePeriodicJob(jobs, PURGE_OLD_ROWS, NOW);
      await schedulePeriodicJob(jobs, PURGE_OLD_ROWS, NOW); // a second instance starting
      expect(await database.db('jobs').where({ type: PURGE_OLD_ROWS })).toHaveLength(1);
      const old = await rows.accountLog(31);

      const id = await runJob();

      expect(await rows.remaining('vpn_account_logs', [old])).toEqual([]);
      expect(await jobs.findById(id)).toMatchObject({
        status: 'queued',
        attempts: 0,
        lastError: null,
        runAt: addSeconds(NOW, PURGE.intervalSeconds),
      });
    });

    it('comes back a minute later when its pass ran out of time', async () => {
      const jobs = createJobsRepo(database.db);
      await schedulePeriodicJob(jobs, PURGE_OLD_ROWS, NOW);
      for (let i = 0; i < 3; i += 1) await rows.accountLog(31);

      const id = await runJob({ batchRows: 1, budgetMs: 0 });

      const job = await jobs.findById(id);
      expect(job).toMatchObject({ status: 'queued', attempts: 0, runAt: addSeconds(NOW, PURGE.continueAfterSeconds) });
      expect(job!.lastError).toMatch(/continuing/);
    });
  });
});
