import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { createGate, useJobQueue } from '../../test/job-queue.js';
import { addSeconds } from '../lib/clock.js';
import { accountSerialKey, createJobsRepo, type Job } from './jobs.repo.js';
import type { JobHandler } from './worker.js';

const quietLog = { warn: () => {}, error: () => {} };

/** Records, per serial key, the order jobs started in and the most that ever ran at once. */
function createOverlapRecorder() {
  const active = new Map<string, number>();
  const mostAtOnce = new Map<string, number>();
  const started = new Map<string, number[]>();
  let runningNow = 0;
  let mostRunning = 0;
  return {
    mostAtOnce,
    started,
    get mostRunning() {
      return mostRunning;
    },
    async run(job: Job, work: () => Promise<void>): Promise<void> {
      const key = job.serialKey ?? '';
      const now = (active.get(key) ?? 0) + 1;
      active.set(key, now);
      mostAtOnce.set(key, Math.max(mostAtOnce.get(key) ?? 0, now));
      started.set(key, [...(started.get(key) ?? []), (job.payload as { n: number }).n]);
      mostRunning = Math.max(mostRunning, ++runningNow);
      try {
        await work();
      } finally {
        active.set(key, active.get(key)! - 1);
        runningNow -= 1;
      }
    },
  };
}

describe.each(TEST_DATABASES)('jobs of one serial key (%s)', (kind) => {
  const queue = useJobQueue(kind, { log: () => quietLog, worker: { pollIntervalMs: 10 } });
  const { createWorker, claim, openPools } = queue;
  const enqueue = (serialKey: string | null, n: number, runAt?: Date) =>
    queue.repo.enqueue({ type: 'renew', payload: { n }, serialKey, runAt }, queue.clock.now());

  it("builds an account's serial key, and none without an account", () => {
    expect(accountSerialKey('acc-1')).toBe('account:acc-1');
    expect(accountSerialKey(null)).toBeNull();
  });

  it('holds back a job while another of its key runs, and gives it out once that one ends', async () => {
    const first = await enqueue('account:a', 1);
    const second = await enqueue('account:a', 2);
    const other = await enqueue('account:b', 3);
    expect(first.serialKey).toBe('account:a');

    expect((await claim('w1'))?.id).toBe(first.id);
    expect((await claim('w2'))?.id).toBe(other.id);
    expect(await claim('w3')).toBeUndefined();
    expect(await queue.repo.findById(second.id)).toMatchObject({ status: 'queued', attempts: 0 });

    await queue.repo.complete(first.id, queue.clock.now());
    expect((await claim('w3'))?.id).toBe(second.id);
  });

  it('gives out the jobs of one key in the order they were enqueued, even due at the same instant', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 8; n++) ids.push((await enqueue('account:a', n)).id);
    const order: string[] = [];
    for (let job = await claim('w'); job; job = await claim('w')) {
      order.push(job.id);
      await queue.repo.complete(job.id, queue.clock.now());
    }
    expect(order).toEqual(ids);
  });

  it('does not hold a due job back for an earlier one of its key that is not due yet', async () => {
    const later = await enqueue('account:a', 1, addSeconds(queue.clock.now(), 60));
    const due = await enqueue('account:a', 2);
    expect((await claim('w'))?.id).toBe(due.id);
    queue.clock.advance(60);
    expect(await claim('w')).toBeUndefined();
    await queue.repo.complete(due.id, queue.clock.now());
    expect((await claim('w'))?.id).toBe(later.id);
  });

  it('holds the key for a job that failed and is retried only while it runs', async () => {
    const failing = await enqueue('account:a', 1);
    const next = await enqueue('account:a', 2);
    await claim('w');
    await queue.repo.fail(failing.id, 'panel down', queue.clock.now(), addSeconds(queue.clock.now(), 30));
    expect((await claim('w'))?.id).toBe(next.id);
  });

  it('takes over the job of a worker whose lease expired, then frees its key', async () => {
    const held = await enqueue('account:a', 1);
    const waiting = await enqueue('account:a', 2);
    expect((await claim('dead', 60))?.id).toBe(held.id);
    queue.clock.advance(30);
    expect(await claim('alive', 60)).toBeUndefined();

    queue.clock.advance(31);
    expect(await claim('alive', 60)).toMatchObject({ id: held.id, lockedBy: 'alive', attempts: 2 });
    expect(await claim('alive', 60)).toBeUndefined();
    await queue.repo.complete(held.id, queue.clock.now());
    expect((await claim('alive', 60))?.id).toBe(waiting.id);
  });

  it('runs jobs of different accounts side by side, up to the concurrency', async () => {
    const release = createGate();
    const recorder = createOverlapRecorder();
    const worker = createWorker({ renew: (_payload, job) => recorder.run(job, () => release.opened) }, { concurrency: 3 });
    for (let n = 0; n < 4; n++) await enqueue(`account:${n}`, n);
    worker.start();
    try {
      await vi.waitFor(async () => expect((await queue.repo.countByStatus()).running).toBe(3));
      expect(recorder.mostRunning).toBe(3);
    } finally {
      release.open();
      await vi.waitFor(async () => expect((await queue.repo.countByStatus()).done).toBe(4));
      await worker.stop();
    }
  });

  it("runs the jobs of one account one at a time, in enqueue order, while other accounts' jobs go on", async () => {
    const gates = [createGate(), createGate(), createGate()];
    const recorder = createOverlapRecorder();
    const worker = createWorker(
      {
        renew: (payload, job) => recorder.run(job, () => gates[(payload as { n: number }).n]!.opened),
      },
      { concurrency: 4 },
    );
    await enqueue('account:a', 0);
    await enqueue('account:a', 1);
    await enqueue('account:b', 2);
    worker.start();
    try {
      await vi.waitFor(() =>
        expect(recorder.started).toEqual(
          new Map([
            ['account:a', [0]],
            ['account:b', [2]],
          ]),
        ),
      );
      // A free slot, and a due job: held back all the same, because job 0 of its account runs.
      expect(await worker.runOnce()).toBe(false);
      expect(recorder.mostAtOnce.get('account:a')).toBe(1);

      gates[0]!.open();
      await vi.waitFor(() => expect(recorder.started.get('account:a')).toEqual([0, 1]));
    } finally {
      for (const gate of gates) gate.open();
      await vi.waitFor(async () => expect((await queue.repo.countByStatus()).done).toBe(3));
      await worker.stop();
    }
    expect(recorder.mostAtOnce.get('account:a')).toBe(1);
  });

  it('never overlaps two jobs of one account across workers racing for them, and keeps their order', async () => {
    const accounts = ['account:a', 'account:b', 'account:c'];
    let n = 0;
    for (let round = 0; round < 6; round++) for (const key of accounts) await enqueue(key, n++);
    await enqueue(null, n++);
    const recorder = createOverlapRecorder();
    const handler: JobHandler = (_payload, job) => recorder.run(job, () => sleep(Math.random() * 4));
    const pools = openPools(3);
    const workers = Array.from({ length: 3 }, (_, i) =>
      createWorker({ renew: handler }, { workerId: `w${i}`, concurrency: 4, repo: pools[i] ? createJobsRepo(pools[i]) : queue.repo }),
    );
    try {
      for (const worker of workers) worker.start();
      await vi.waitFor(async () => expect((await queue.repo.countByStatus()).done).toBe(n), { timeout: 20_000 });
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
    for (const [i, key] of accounts.entries()) {
      expect(recorder.mostAtOnce.get(key)).toBe(1);
      expect(recorder.started.get(key)).toEqual([0, 1, 2, 3, 4, 5].map((round) => round * accounts.length + i));
    }
  });

  it('gives one job of a key to one of many workers claiming at the same instant', async () => {
    for (let n = 0; n < 6; n++) await enqueue('account:a', n);
    const pools = openPools(6);
    const repos = pools.length > 0 ? pools.map(createJobsRepo) : Array.from({ length: 6 }, () => queue.repo);
    try {
      const claimed = await Promise.all(repos.map((each, i) => each.claimNext({ workerId: `w${i}`, now: queue.clock.now(), lockTimeoutSeconds: 600 })));
      expect(claimed.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
    expect(await queue.repo.countByStatus()).toMatchObject({ running: 1, queued: 5 });
  });

  // PostgreSQL only (skipped on SQLite): it needs two claims in flight at once, and SQLite's single writer runs them one after the other.
  it.runIf(kind === 'postgres')("takes nothing when another worker's claim of the key commits while its own is under way", async () => {
    // The earlier job is not due yet for the first worker, so it takes the later one; the second worker's
    // queue.clock has both due, and its statement's snapshot cannot see the first claim, which has not committed.
    const earlier = await enqueue('account:a', 1, addSeconds(queue.clock.now(), 60));
    const later = await enqueue('account:a', 2);
    const [other] = openPools(1);
    const trx = await queue.database.db.transaction();
    try {
      await trx('jobs').where({ id: later.id }).update({ status: 'running', locked_by: 'w1', locked_at: queue.clock.now() });
      const xid = String((await trx.raw('SELECT txid_current() AS xid')).rows[0].xid);
      const racing = createJobsRepo(other!).claimNext({ workerId: 'w2', now: addSeconds(queue.clock.now(), 60), lockTimeoutSeconds: 600 });
      // The second claim's update waits for the first's transaction, on the unique index of running keys.
      const waiting = async () =>
        Number(
          (
            await queue.database.db.raw("SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid' AND transactionid::text = ?", [
              xid,
            ])
          ).rows[0].n,
        );
      await vi.waitFor(async () => expect(await waiting()).toBeGreaterThan(0));
      await trx.commit();
      expect(await racing).toBeUndefined();
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await other!.destroy();
    }
    expect(await queue.repo.findById(earlier.id)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});
