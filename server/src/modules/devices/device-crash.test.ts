import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { ROOT_DIR } from '../../lib/package-info.js';
import { createDevicesRepo } from './devices.repo.js';

const FIXTURE = fileURLToPath(new URL('./device-crash.fixture.ts', import.meta.url));

/** Runs the fixture against `database`; resolves with how it ended. */
function admitAndDie(database: TestDatabase, accountId: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    cwd: ROOT_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DEVICE_CRASH_DB: database.url,
      DEVICE_CRASH_SCHEMA: database.schema ?? '',
      DEVICE_CRASH_ACCOUNT: accountId,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, output })));
}

/**
 * A device's admission is one insert in one transaction: a process killed (SIGKILL) right after the
 * database ran that insert, before the commit, leaves no row and no lock behind, and the slot is free.
 */
describe.each(TEST_DATABASES)('a device admission killed mid-way (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const now = new Date();
    await database
      .db('user_profiles')
      .insert({ id: 'crash-user', email: 'crash@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    await database.db('vpn_accounts').insert({
      id: 'crash-account',
      user_id: 'crash-user',
      username: 'user_crash001',
      status: 'active',
      data_limit: 0,
      sub_token: 'crash-token',
      metadata: '{}',
      device_limit: 1,
      created_at: now,
      updated_at: now,
    });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('leaves no device row and no lock, so the slot can be taken at once', { timeout: 30_000 }, async () => {
    const ended = await admitAndDie(database, 'crash-account');
    expect(ended.signal, ended.output).toBe('SIGKILL');
    expect(await database.db('account_devices').where({ vpn_account_id: 'crash-account' })).toEqual([]);

    const repo = createDevicesRepo(database.db);
    const device = { hwid: 'next-device', os: null, osVersion: null, model: null, app: null };
    expect(await repo.admit('crash-account', device, 1, new Date())).toEqual({ outcome: 'admitted' });
    expect(await repo.admit('crash-account', { ...device, hwid: 'crashing-device' }, 1, new Date())).toEqual({ outcome: 'refused', count: 1 });
    expect((await database.db('account_devices').where({ vpn_account_id: 'crash-account' })).map((row) => row.hwid)).toEqual(['next-device']);
  });
});
