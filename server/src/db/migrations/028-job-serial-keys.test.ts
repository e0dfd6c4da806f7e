import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { createJobsRepo } from '../../jobs/jobs.repo.js';
import * as jobSerialKeys from './028-job-serial-keys.js';

describe.each(TEST_DATABASES)('migration 028-job-serial-keys on a queue from before it (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    await jobSerialKeys.down(database.db); // back to jobs without serial keys
  });
  afterEach(async () => {
    await database.destroy();
  });

  it('numbers the jobs already queued, with no serial key, and runs them before jobs added after it', async () => {
    const now = new Date();
    const old = randomUUID();
    await database.db('jobs').insert({ id: old, type: 'renew', payload: '{}', status: 'queued', attempts: 0, max_attempts: 20, run_at: now, created_at: now, updated_at: now });

    await jobSerialKeys.up(database.db);

    const row = await database.db('jobs').where({ id: old }).first();
    expect(row).toMatchObject({ serial_key: null });
    expect(Number(row.seq)).toBeGreaterThan(0);
    const repo = createJobsRepo(database.db);
    const added = await repo.enqueue({ type: 'renew', payload: {}, serialKey: 'account:a' }, now);
    expect(await repo.claimNext({ workerId: 'w', now, lockTimeoutSeconds: 60 })).toMatchObject({ id: old, serialKey: null });
    expect(await repo.claimNext({ workerId: 'w', now, lockTimeoutSeconds: 60 })).toMatchObject({ id: added.id, serialKey: 'account:a' });
  });
});
