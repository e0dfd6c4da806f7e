import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { TEST_APP_SECRET } from '../../../test/test-app.js';
import { loadConfig } from '../../config.js';
import { createTakeBackupHandler, lastDueAt, nextDueAt } from './backup-schedule.js';
import { listBackups } from './backup-list.js';
import { createBackupStatus } from './backup-status.js';

const quietLog = { info: () => {} };
const job = {} as never;

describe('the daily backup time', () => {
  it('is the last HH:MM UTC at or before now, and the next one after it', () => {
    const now = new Date('2030-05-10T03:00:00Z');
    expect(lastDueAt('04:30', now).toISOString()).toBe('2030-05-09T04:30:00.000Z');
    expect(nextDueAt('04:30', now).toISOString()).toBe('2030-05-10T04:30:00.000Z');
    expect(lastDueAt('03:00', now).toISOString()).toBe('2030-05-10T03:00:00.000Z');
    expect(nextDueAt('03:00', now).toISOString()).toBe('2030-05-11T03:00:00.000Z');
  });
});

/** The scheduled backup as the job queue runs it, on a SQLite store, with the clock moved by hand. */
describe('the scheduled backup', () => {
  let database: TestDatabase;
  const dir = mkdtempSync(join(tmpdir(), 'vpn-backup-schedule-'));
  let now = new Date('2030-05-10T10:00:00Z');
  const clock = () => now;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const config = (env: Record<string, string> = {}) =>
    loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      APP_SECRET: TEST_APP_SECRET,
      BACKUP_DIR: join(dir, 'backups'),
      BACKUP_PASSPHRASE: 'a passphrase long enough',
      BACKUP_KEEP: '2',
      ...env,
    });

  it('does nothing without BACKUP_TIME, and the System page shows no alert', async () => {
    const handler = createTakeBackupHandler({ config: config(), clock, log: quietLog });
    expect(await handler({}, job)).toEqual({ runAgainAt: new Date('2030-05-11T10:00:00Z'), note: 'BACKUP_TIME is not set: no scheduled backups' });
    expect(await listBackups(join(dir, 'backups'))).toEqual([]);
    expect(await createBackupStatus({ config: config(), clock }).status()).toEqual({ scheduledAt: null, keep: 2, count: 0, last: null, alert: false });
  });

  it('with none yet, warns, takes one at once, then one a day at BACKUP_TIME, keeping the newest BACKUP_KEEP', async () => {
    const scheduled = config({ BACKUP_TIME: '04:00' });
    const status = createBackupStatus({ config: scheduled, clock });
    expect(await status.status()).toMatchObject({ scheduledAt: '04:00', count: 0, last: null, alert: true });
    const handler = createTakeBackupHandler({ config: scheduled, clock, log: quietLog });

    expect(await handler({}, job)).toEqual({ runAgainAt: new Date('2030-05-11T04:00:00Z'), note: null });
    expect((await listBackups(join(dir, 'backups'))).map((b) => b.name)).toEqual(['backup-20300510-100000Z.vpnbackup']);
    now = new Date('2030-05-10T20:00:00Z'); // run early (another instance, a restart): nothing new is due
    await handler({}, job);
    expect(await listBackups(join(dir, 'backups'))).toHaveLength(1);
    expect(await status.status()).toMatchObject({ count: 1, last: { takenAt: '2030-05-10T10:00:00.000Z', ageSeconds: 36_000 }, alert: false });

    for (const day of ['11', '12', '13']) {
      now = new Date(`2030-05-${day}T04:00:00Z`);
      await handler({}, job);
    }
    expect((await listBackups(join(dir, 'backups'))).map((b) => b.name)).toEqual(['backup-20300512-040000Z.vpnbackup', 'backup-20300513-040000Z.vpnbackup']);
    now = new Date('2030-05-14T04:00:01Z'); // the server was down at 04:00 and the day after
    expect(await status.status()).toMatchObject({ alert: true, last: { takenAt: '2030-05-13T04:00:00.000Z' } });
  });
});
