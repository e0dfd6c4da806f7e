import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { createGate, useJobQueue } from '../../test/job-queue.js';
import { addSeconds } from '../lib/clock.js';
import { createJobsRepo } from './jobs.repo.js';
import { computeRetryDelaySeconds, PermanentJobError, RetryJobLater, type JobHandler } from './worker.js';

interface LogEntry {
  level: 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

function createLogRecorder() {
  const entries: LogEntry[] = [];
  return {
    entries,
    warn: (obj: object, msg: string) => void entries.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj: object, msg: string) => void entries.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
}

describe('retry back-off', () => {
  it('doubles from the base delay up to the maximum, plus at most the jitter ratio', () => {
    const backoff = { baseSeconds: 10, maxSeconds: 60, jitterRatio: 0.1 };
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5].map((n) => computeRetryDelaySeconds(n, backoff, noJitter))).toEqual([10, 20, 40, 60, 60]);
    expect(computeRetryDelaySeconds(2, backoff, () => 0.5)).toBeCloseTo(21);
  });
});

describe.each(TEST_DATABASES)('job queue (%s)', (kind) => {
  let log: ReturnType<typeof createLogRecorder>;
  const queue = useJobQueue(kind, { log: () => log });
  const { createWorker, claim, openPools } = queue;
  beforeEach(() => {
    log = createLogRecorder();
  });

  it('enqueues, claims and completes a job', async () => {
    const job = await queue.repo.enqueue({ type: 'provision', payload: { paymentId: 'pay_1', plans: ['a'] } }, queue.clock.now());
    expect(job).toMatchObject({ status: 'queued', attempts: 0, maxAttempts: 20, lockedBy: null, dedupeKey: null });

    const claimed = await claim('worker-a');
    expect(claimed).toMatchObject({ id: job.id, status: 'running', attempts: 1, lockedBy: 'worker-a', payload: { paymentId: 'pay_1', plans: ['a'] } });
    expect(claimed?.lockedAt).toEqual(queue.clock.now());
    expect(await claim('worker-b')).toBeUndefined();

    await queue.repo.complete(job.id, queue.clock.now());
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'done', attempts: 1, lockedAt: null, lockedBy: null });
    expect(await queue.repo.countByStatus()).toEqual({ queued: 0, running: 0, done: 1, failed: 0 });
  });

  it('says what the queue holds by type: jobs waiting for their time, and due ones with the oldest due time', async () => {
    const now = queue.clock.now();
    const hourAgo = addSeconds(now, -3600);
    await queue.repo.enqueue({ type: 'renewal_reminder', payload: {}, runAt: addSeconds(now, 86_400) }, now);
    await queue.repo.enqueue({ type: 'renewal_reminder', payload: {}, runAt: addSeconds(now, 600) }, now);
    await queue.repo.enqueue({ type: 'provision', payload: {}, runAt: hourAgo }, hourAgo);
    await queue.repo.enqueue({ type: 'provision', payload: {}, runAt: now }, now);
    const done = await queue.repo.enqueue({ type: 'sync', payload: {} }, now);
    await queue.repo.complete(done.id, now);

    expect(await queue.repo.queuedByType(now)).toEqual([
      { type: 'provision', waiting: 0, due: 2, oldestDueAt: hourAgo },
      { type: 'renewal_reminder', waiting: 2, due: 0, oldestDueAt: null },
    ]);
  });

  it('keeps one job per dedupe key, even when enqueued concurrently', async () => {
    const enqueue = (n: number) => queue.repo.enqueue({ type: 'provision', payload: { n }, dedupeKey: 'payment:pay_1' }, queue.clock.now());
    const first = await enqueue(0);
    const again = await Promise.all([1, 2, 3, 4, 5].map(enqueue));

    expect(again.map((job) => job.id)).toEqual(Array(5).fill(first.id));
    expect(again[0]?.payload).toEqual({ n: 0 });
    expect(await queue.database.db('jobs').where({ dedupe_key: 'payment:pay_1' })).toHaveLength(1);
  });

  it('does not claim a job before its run_at', async () => {
    const job = await queue.repo.enqueue({ type: 'cleanup', payload: {}, runAt: addSeconds(queue.clock.now(), 60) }, queue.clock.now());
    expect(await claim('worker-a')).toBeUndefined();
    queue.clock.advance(60);
    expect((await claim('worker-a'))?.id).toBe(job.id);
  });

  it('claims only the types asked for', async () => {
    await queue.repo.enqueue({ type: 'cleanup', payload: {} }, queue.clock.now());
    const wanted = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    const claimed = await queue.repo.claimNext({ workerId: 'w', now: queue.clock.now(), lockTimeoutSeconds: 600, types: ['provision'] });
    expect(claimed?.id).toBe(wanted.id);
  });

  it('retries a failing handler with growing delays and fails it after its last attempt', async () => {
    let calls = 0;
    const failing = createWorker(
      {
        provision: async () => {
          calls++;
          throw new Error('panel did not answer');
        },
      },
      { backoff: { baseSeconds: 10, maxSeconds: 25, jitterRatio: 0 } },
    );
    const job = await queue.repo.enqueue({ type: 'provision', payload: {}, maxAttempts: 4 }, queue.clock.now());

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = queue.clock.now();
      expect(await failing.runOnce()).toBe(true);
      const stored = await queue.repo.findById(job.id);
      expect(stored).toMatchObject({ status: 'queued', attempts: attempt, lastError: 'panel did not answer', lockedBy: null });
      const delay = (stored!.runAt.getTime() - before.getTime()) / 1000;
      delays.push(delay);
      queue.clock.advance(delay - 1);
      expect(await failing.runOnce()).toBe(false);
      queue.clock.advance(1);
    }
    expect(delays).toEqual([10, 20, 25]);

    expect(await failing.runOnce()).toBe(true);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'failed', attempts: 4, lastError: 'panel did not answer' });
    expect(calls).toBe(4);
    expect(log.entries.map((e) => e.level)).toEqual(['warn', 'warn', 'warn', 'error']);
    expect(log.entries[3]?.obj).toMatchObject({ jobId: job.id, type: 'provision', err: expect.any(Error) });
    expect((await queue.repo.listFailed(10)).map((j) => j.id)).toEqual([job.id]);
  });

  it('fails a job at once on a PermanentJobError', async () => {
    const worker = createWorker({
      provision: async () => {
        throw new PermanentJobError('plan no longer exists');
      },
    });
    const job = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());

    expect(await worker.runOnce()).toBe(true);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'plan no longer exists' });
    expect(log.entries).toEqual([
      { level: 'error', obj: expect.objectContaining({ jobId: job.id, type: 'provision', err: expect.any(PermanentJobError) }), msg: 'job failed permanently' },
    ]);
  });

  it('runs a job again after the delay a RetryJobLater asks for, logging nothing', async () => {
    const worker = createWorker({
      follow_up: async () => {
        throw new RetryJobLater('payment still open', 900);
      },
    });
    const job = await queue.repo.enqueue({ type: 'follow_up', payload: {}, maxAttempts: 3 }, queue.clock.now());

    expect(await worker.runOnce()).toBe(true);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'queued', attempts: 1, runAt: new Date(queue.clock.now().getTime() + 900_000) });
    expect(log.entries).toEqual([]);
    queue.clock.advance(900);
    expect(await worker.runOnce()).toBe(true);
    queue.clock.advance(900);
    expect(await worker.runOnce()).toBe(true);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('runs a periodic job again when its handler asks, with fresh attempts and its note kept, never finishing it', async () => {
    let runs = 0;
    const worker = createWorker({
      sweep: async () => ({ runAgainAt: addSeconds(queue.clock.now(), 60), note: (runs += 1) === 1 ? 'panel DE did not answer' : null }),
    });
    const job = await queue.repo.enqueue({ type: 'sweep', payload: {}, maxAttempts: 2, dedupeKey: 'sweep' }, queue.clock.now());

    expect(await worker.runOnce()).toBe(true);
    expect(await queue.repo.findById(job.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      runAt: addSeconds(queue.clock.now(), 60),
      lastError: 'panel DE did not answer',
      lockedBy: null,
    });
    expect(await worker.runOnce()).toBe(false);
    for (let i = 0; i < 3; i += 1) {
      queue.clock.advance(60);
      expect(await worker.runOnce()).toBe(true);
    }
    expect(runs).toBe(4);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'queued', attempts: 0, lastError: null });
    expect(log.entries).toEqual([]);
  });

  it('keeps one periodic job however often it is scheduled, and brings it back when it had failed', async () => {
    const first = await queue.repo.ensureRecurring({ type: 'sweep', payload: {}, dedupeKey: 'sweep' }, queue.clock.now());
    await claim('w');
    expect(await queue.repo.ensureRecurring({ type: 'sweep', payload: {}, dedupeKey: 'sweep' }, queue.clock.now())).toMatchObject({
      id: first.id,
      status: 'running',
    });
    await queue.repo.fail(first.id, 'queue.database away', queue.clock.now(), null);
    queue.clock.advance(5);
    expect(await queue.repo.ensureRecurring({ type: 'sweep', payload: {}, dedupeKey: 'sweep' }, queue.clock.now())).toMatchObject({
      id: first.id,
      status: 'queued',
      attempts: 0,
      runAt: queue.clock.now(),
    });
    expect(await queue.database.db('jobs').where({ dedupe_key: 'sweep' })).toHaveLength(1);
  });

  it('fails a job of an unknown type with a clear message', async () => {
    const job = await queue.repo.enqueue({ type: 'mystery', payload: {} }, queue.clock.now());
    expect(await createWorker({}).runOnce()).toBe(true);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'failed', lastError: 'No handler for job type "mystery".' });
  });

  it('keeps last_error short and free of the stack', async () => {
    const worker = createWorker({
      provision: async () => {
        throw new Error('x'.repeat(5000));
      },
    });
    const job = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    await worker.runOnce();
    const { lastError } = (await queue.repo.findById(job.id))!;
    expect(lastError?.length).toBe(1000);
    expect(lastError).not.toMatch(/\n\s+at /);
  });

  it('claims a running job again once its lock has timed out', async () => {
    const job = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    await claim('dead-worker', 300);
    queue.clock.advance(299);
    expect(await claim('worker-b', 300)).toBeUndefined();
    queue.clock.advance(2);
    expect(await claim('worker-b', 300)).toMatchObject({ id: job.id, status: 'running', attempts: 2, lockedBy: 'worker-b' });
  });

  it('keeps the lease of a job its worker is still running, however long it runs, and lets it go when the worker dies', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const worker = createWorker({ provision: () => blocked }, { lockTimeoutSeconds: 60, leaseRenewIntervalMs: 5 });
    const job = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    const run = worker.runOnce();
    await expect.poll(async () => (await queue.repo.findById(job.id))?.status).toBe('running');
    for (let minute = 0; minute < 3; minute += 1) {
      queue.clock.advance(50);
      const renewed = queue.clock.now().getTime();
      await expect.poll(async () => (await queue.repo.findById(job.id))?.lockedAt?.getTime()).toBe(renewed);
      queue.clock.advance(50); // 100 s after the claim, 50 s after the last renewal
      expect(await claim('worker-b', 60)).toBeUndefined();
    }
    release();
    await run;
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'done', lockedBy: null });

    // A worker that died renews nothing: 61 s after its claim another takes the job over.
    const orphan = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    await claim('dead-worker', 60);
    queue.clock.advance(59);
    expect(await claim('worker-b', 60)).toBeUndefined();
    queue.clock.advance(2);
    expect(await claim('worker-b', 60)).toMatchObject({ id: orphan.id, lockedBy: 'worker-b', attempts: 2 });
  });

  it("takes over a dead worker's job a minute later by default, not before", async () => {
    let calls = 0;
    const worker = createWorker({ provision: async () => void calls++ });
    const job = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    await claim('dead-worker', 60);
    queue.clock.advance(58);
    expect(await worker.runOnce()).toBe(false);
    queue.clock.advance(3);
    expect(await worker.runOnce()).toBe(true);
    expect(calls).toBe(1);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'done' });
  });

  it('gives up, without running it, a job whose worker died on its last attempt', async () => {
    let calls = 0;
    const worker = createWorker({ provision: async () => void calls++ }, { lockTimeoutSeconds: 300 });
    const job = await queue.repo.enqueue({ type: 'provision', payload: {}, maxAttempts: 1 }, queue.clock.now());
    await claim('dead-worker', 300);
    queue.clock.advance(301);

    expect(await worker.runOnce()).toBe(true);
    expect(calls).toBe(0);
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('puts a failed job back in the queue with fresh attempts when retried', async () => {
    const job = await queue.repo.enqueue({ type: 'provision', payload: {}, maxAttempts: 1 }, queue.clock.now());
    await claim('w');
    await queue.repo.fail(job.id, 'panel down', queue.clock.now(), null);
    queue.clock.advance(5);

    expect(await queue.repo.retry(job.id, queue.clock.now())).toMatchObject({
      status: 'queued',
      attempts: 0,
      runAt: queue.clock.now(),
      lastError: 'panel down',
    });
    expect(await queue.repo.retry(job.id, queue.clock.now())).toBeUndefined();
    expect(await queue.repo.retry('no-such-job', queue.clock.now())).toBeUndefined();
  });

  it('never gives the same job to two workers claiming at the same time', async () => {
    const jobIds = new Set<string>();
    for (let i = 0; i < 20; i++) jobIds.add((await queue.repo.enqueue({ type: 'provision', payload: { i } }, queue.clock.now())).id);
    // PostgreSQL: each worker with its own connection pool, as separate app instances would be.
    // SQLite: one app instance, one pool (the embedded queue.database has a single writer).
    const pools = openPools(4);
    const ran: string[] = [];
    const handler: JobHandler = async (_payload, job) => {
      ran.push(job.id);
      await sleep(Math.random() * 5);
    };
    const workers = Array.from({ length: 4 }, (_, n) =>
      createWorker({ provision: handler }, { workerId: `w${n}`, repo: pools[n] ? createJobsRepo(pools[n]) : queue.repo }),
    );

    try {
      await Promise.all(
        workers.map(async (worker) => {
          while (await worker.runOnce());
        }),
      );
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }

    expect(ran).toHaveLength(20);
    expect(new Set(ran)).toEqual(jobIds);
    expect(await queue.repo.countByStatus()).toEqual({ queued: 0, running: 0, done: 20, failed: 0 });
  });

  it('runs up to `concurrency` jobs at once when started', async () => {
    const release = createGate();
    let running = 0;
    const worker = createWorker(
      {
        provision: async () => {
          running++;
          await release.opened;
        },
      },
      { pollIntervalMs: 10, concurrency: 2 },
    );
    const jobs = await Promise.all([1, 2, 3].map(() => queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now())));
    worker.start();
    await vi.waitFor(() => expect(running).toBe(2));
    await sleep(30);
    expect(running).toBe(2);
    expect(await queue.repo.countByStatus()).toMatchObject({ queued: 1, running: 2 });

    release.open();
    await vi.waitFor(async () => expect((await queue.repo.countByStatus()).done).toBe(jobs.length));
    await worker.stop();
  });

  it('waits for a running handler when stopped, and claims nothing more', async () => {
    const started = createGate();
    const release = createGate();
    const worker = createWorker(
      {
        provision: async () => {
          started.open();
          await release.opened;
        },
      },
      // Its one slot is taken: the job enqueued next waits, and must still be waiting after the stop.
      { pollIntervalMs: 10, concurrency: 1 },
    );
    const job = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());
    worker.start();
    await started.opened;
    const later = await queue.repo.enqueue({ type: 'provision', payload: {} }, queue.clock.now());

    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);

    release.open();
    await stopping;
    expect(await queue.repo.findById(job.id)).toMatchObject({ status: 'done' });
    expect(await queue.repo.findById(later.id)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});
