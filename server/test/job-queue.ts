import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createDb, type Db } from '../src/db/knex.js';
import { createJobsRepo, type JobsRepo } from '../src/jobs/jobs.repo.js';
import { createJobWorker, type JobHandler, type JobLogger, type JobWorkerOptions } from '../src/jobs/worker.js';
import { createTestDatabase, type TestDatabaseKind, type TestDatabase } from './databases.js';
import { createTestClock, type TestClock } from './test-clock.js';

/** A promise the test resolves when it chooses: a job that waits on it runs until then. */
export function createGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * The job queue on a test database of `kind`, emptied and given a fresh clock before each test.
 * Read its fields inside tests (they are set in `beforeAll`/`beforeEach`).
 */
export function useJobQueue(kind: TestDatabaseKind, defaults: { log: () => JobLogger; worker?: Partial<JobWorkerOptions> }) {
  const queue = {
    database: undefined as unknown as TestDatabase,
    repo: undefined as unknown as JobsRepo,
    clock: undefined as unknown as TestClock,
    createWorker: (handlers: Record<string, JobHandler>, options: Partial<JobWorkerOptions> = {}) =>
      createJobWorker({ repo: queue.repo, clock: queue.clock.now, log: defaults.log(), handlers, backoff: { jitterRatio: 0 }, ...defaults.worker, ...options }),
    claim: (workerId: string, lockTimeoutSeconds = 600) => queue.repo.claimNext({ workerId, now: queue.clock.now(), lockTimeoutSeconds }),
    /** PostgreSQL: a pool per worker, as separate app instances have. SQLite: none (the embedded database has one writer, so workers share the one pool). */
    openPools: (count: number): Db[] =>
      kind === 'postgres' ? Array.from({ length: count }, () => createDb(queue.database.url, { searchPath: queue.database.schema })) : [],
  };
  beforeAll(async () => {
    queue.database = await createTestDatabase(kind);
    queue.repo = createJobsRepo(queue.database.db);
  });
  afterAll(async () => {
    await queue.database.destroy();
  });
  beforeEach(async () => {
    await queue.database.db('jobs').del();
    queue.clock = createTestClock();
  });
  return queue;
}
