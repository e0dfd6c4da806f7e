import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { addSeconds, type Clock } from '../lib/clock.js';
import { createLeaseKeeper, type LeaseKeeper } from './job-leases.js';
import type { Job, JobsRepo } from './jobs.repo.js';

/**
 * What a periodic job's handler returns instead of finishing: the same job is due again at `runAgainAt`
 * with a fresh count of attempts; `note` (or nothing) is kept in `last_error` for the admin to read.
 */
export interface RunAgain {
  runAgainAt: Date;
  note?: string | null;
}

/**
 * Runs one job. The payload comes from the database as stored: validate it. Throw to retry later.
 * Resolve with nothing to finish the job, or with `RunAgain` to keep a periodic job going.
 */
export type JobHandler = (payload: unknown, job: Job) => Promise<void | RunAgain>;

/** The part of a pino (or Fastify) logger the worker uses. */
export interface JobLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Thrown by a handler when trying again cannot help (bad payload, a refusal): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/**
 * Thrown by a handler whose work is not due yet (a payment still open, say): the job runs again after
 * `delaySeconds`, with no error logged. It still counts as an attempt.
 */
export class RetryJobLater extends Error {
  constructor(
    message: string,
    public readonly delaySeconds: number,
  ) {
    super(message);
    this.name = 'RetryJobLater';
  }
}

/** Delay before retry n (n = attempts so far): min(maxSeconds, baseSeconds · 2^(n-1)), plus up to jitterRatio more. */
export interface Backoff {
  baseSeconds: number;
  maxSeconds: number;
  jitterRatio: number;
}

/** Capped at 10 minutes: a paid account must appear soon after its panel comes back. */
export const DEFAULT_BACKOFF: Backoff = { baseSeconds: 10, maxSeconds: 600, jitterRatio: 0.1 };
/** Longer than any handler may run: past this, a `running` job is taken to belong to a dead worker. */
/**
 * A running job's lease: its worker renews it (`locked_at`) every third of this while the handler runs, so a
 * job held by a process that died is taken back by another worker within this long, however long jobs run.
 */
export const DEFAULT_LOCK_TIMEOUT_SECONDS = 60;
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/**
 * Jobs one worker runs at a time. Most of a job's time is spent waiting for a panel or a provider, so
 * several run side by side (the jobs of one account still run one at a time: see EnqueueJob.serialKey).
 */
export const DEFAULT_CONCURRENCY = 32;

export interface JobWorkerOptions {
  repo: JobsRepo;
  clock: Clock;
  log: JobLogger;
  handlers: Record<string, JobHandler>;
  /** Written to `locked_by`; defaults to host, pid and a random suffix. */
  workerId?: string;
  pollIntervalMs?: number;
  /** Jobs run at the same time by `start()`; DEFAULT_CONCURRENCY when absent. */
  concurrency?: number;
  lockTimeoutSeconds?: number;
  /** How often the leases of running jobs are renewed, ms; default a third of `lockTimeoutSeconds`. */
  leaseRenewIntervalMs?: number;
  backoff?: Partial<Backoff>;
  /** For jitter; tests pass a constant. */
  random?: () => number;
}

export interface JobWorker {
  readonly workerId: string;
  /** Starts claiming: up to `concurrency` jobs at once, looking again every poll interval while none is due. */
  start(): void;
  /** Stops claiming and resolves once every job already started has finished. */
  stop(): Promise<void>;
  /** Claims and runs at most one due job; true when it ran one. */
  runOnce(): Promise<boolean>;
  /** The jobs running now: id, type and for how many seconds. */
  running(): Array<{ id: string; type: string; seconds: number }>;
}

export function computeRetryDelaySeconds(attempts: number, backoff: Backoff, random: () => number = Math.random): number {
  const delay = Math.min(backoff.maxSeconds, backoff.baseSeconds * 2 ** Math.max(0, attempts - 1));
  return delay * (1 + backoff.jitterRatio * random());
}

/** The message kept in `last_error`: no stack (the log has it). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

const createWorkerId = () => `${hostname().slice(0, 40)}-${process.pid}-${randomUUID().slice(0, 8)}`;

/** What running one job needs: the worker's options with their defaults filled in, and its running jobs' leases. */
interface JobRunContext {
  repo: JobsRepo;
  clock: Clock;
  log: JobLogger;
  handlers: Record<string, JobHandler>;
  backoff: Backoff;
  random: () => number;
  leases: LeaseKeeper;
}

async function giveUp(ctx: JobRunContext, job: Job, message: string): Promise<void> {
  ctx.log.error({ jobId: job.id, type: job.type, attempts: job.attempts }, message);
  await ctx.repo.fail(job.id, message, ctx.clock(), null);
}

async function recordFailure(ctx: JobRunContext, job: Job, err: unknown): Promise<void> {
  const { repo, log } = ctx;
  const context = { err, jobId: job.id, type: job.type, attempts: job.attempts };
  const now = ctx.clock();
  if (err instanceof RetryJobLater && job.attempts < job.maxAttempts) {
    await repo.fail(job.id, err.message, now, addSeconds(now, err.delaySeconds));
    return;
  }
  if (err instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
    log.error(context, err instanceof PermanentJobError ? 'job failed permanently' : 'job failed on its last attempt');
    await repo.fail(job.id, describeError(err), now, null);
    return;
  }
  const retryAt = addSeconds(now, computeRetryDelaySeconds(job.attempts, ctx.backoff, ctx.random));
  log.warn({ ...context, retryAt }, 'job failed; will retry');
  await repo.fail(job.id, describeError(err), now, retryAt);
}

/** Runs a claimed job and records how it went: done, due again (RunAgain), to be retried, or failed. */
async function runJob(ctx: JobRunContext, job: Job): Promise<void> {
  const { handlers, leases } = ctx;
  const handler = Object.hasOwn(handlers, job.type) ? handlers[job.type] : undefined;
  if (!handler) return giveUp(ctx, job, `No handler for job type "${job.type}".`);
  // A job whose worker died during its last attempt comes back with attempts past the limit.
  if (job.attempts > job.maxAttempts) return giveUp(ctx, job, `Gave up after ${job.maxAttempts} attempts; the last worker stopped responding.`);
  let outcome: void | RunAgain;
  leases.track(job);
  try {
    outcome = await handler(job.payload, job);
  } catch (err) {
    return recordFailure(ctx, job, err);
  } finally {
    leases.untrack(job);
  }
  if (outcome) await ctx.repo.reschedule(job.id, outcome.runAgainAt, outcome.note ?? null, ctx.clock());
  else await ctx.repo.complete(job.id, ctx.clock());
}

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { repo, clock, log, handlers } = options;
  const workerId = options.workerId ?? createWorkerId();
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const lockTimeoutSeconds = options.lockTimeoutSeconds ?? DEFAULT_LOCK_TIMEOUT_SECONDS;
  const backoff: Backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const random = options.random ?? Math.random;

  const inFlight = new Set<Promise<unknown>>();
  /** The jobs being run now: their leases are renewed, and the shutdown log names them when they hold it up. */
  const leases = createLeaseKeeper({ repo, clock, log, workerId, renewIntervalMs: options.leaseRenewIntervalMs ?? (lockTimeoutSeconds * 1000) / 3 });
  const ctx: JobRunContext = { repo, clock, log, handlers, backoff, random, leases };
  const sleeper = createSleeper();
  let loop: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;

  async function claimAndRun(): Promise<boolean> {
    const job = await repo.claimNext({ workerId, now: clock(), lockTimeoutSeconds });
    if (!job) return false;
    await runJob(ctx, job);
    return true;
  }

  function runOnce(): Promise<boolean> {
    if (stopping) return Promise.resolve(false);
    const attempt = claimAndRun();
    track(attempt);
    return attempt;
  }

  /**
   * One loop claims while fewer than `concurrency` jobs run, and starts each job without waiting for it.
   * With nothing to claim (or every slot taken) it sleeps until the poll interval passes or a job ends: an
   * ending job frees a slot, and may let the next job of its serial key run.
   */
  async function runLoop(): Promise<void> {
    while (!stopping) {
      if (inFlight.size >= concurrency) {
        await sleeper.sleep(pollIntervalMs);
        continue;
      }
      let claimed = false;
      try {
        const job = await repo.claimNext({ workerId, now: clock(), lockTimeoutSeconds });
        if (job) {
          claimed = true;
          track(runJob(ctx, job).catch((err: unknown) => log.error({ err, jobId: job.id, workerId }, "job queue: could not record a job's outcome")));
        }
      } catch (err) {
        log.error({ err, workerId }, 'job queue: could not claim a job');
      }
      if (!claimed && !stopping) await sleeper.sleep(pollIntervalMs);
    }
  }

  /** Counts a started job in flight until it settles; its end wakes the loop. */
  function track(attempt: Promise<unknown>): void {
    inFlight.add(attempt);
    const forget = () => {
      inFlight.delete(attempt);
      sleeper.wakeAll();
    };
    attempt.then(forget, forget);
  }

  async function finishRunning(): Promise<void> {
    sleeper.wakeAll();
    await loop;
    await Promise.allSettled([...inFlight]);
    loop = undefined;
  }

  return {
    workerId,
    runOnce,
    running: () => [...leases.running].map(([id, job]) => ({ id, type: job.type, seconds: Math.round((Date.now() - job.startedAt) / 1000) })),
    start() {
      if (loop || stopping) return;
      loop = runLoop();
    },
    stop() {
      stopping ??= finishRunning().finally(() => {
        stopping = undefined;
      });
      return stopping;
    },
  };
}

/** setTimeout that `wakeAll()` can cut short (so stop() need not wait out a poll interval). */
function createSleeper() {
  const wakers = new Set<() => void>();
  return {
    sleep(ms: number): Promise<void> {
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        wakers.add(wake);
      });
    },
    wakeAll(): void {
      for (const wake of [...wakers]) wake();
    },
  };
}
