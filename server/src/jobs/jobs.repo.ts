import { randomUUID } from 'node:crypto';
import { dialectOf, type Db } from '../db/knex.js';
import { parseJson, toDate, toDateOrNull, toJson } from '../db/values.js';
import { isUniqueViolation } from '../db/errors.js';
import { addSeconds } from '../lib/clock.js';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const DEFAULT_MAX_ATTEMPTS = 20;
/** `last_error` keeps a short message: enough to read in the admin panel, never a stack. */
export const MAX_ERROR_LENGTH = 1000;
/** A claim that lost a race for a serial key (another worker took a job of that key first) looks again, up to this many times. */
const CLAIM_TRIES = 5;

/** The serial key of the jobs that change one VPN account (they run one at a time, in the order they were enqueued); none without an account. */
export const accountSerialKey = (accountId: string | null | undefined): string | null => (accountId ? `account:${accountId}` : null);

export interface Job {
  id: string;
  type: string;
  /** As stored; a handler validates it before use. */
  payload: unknown;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lockedAt: Date | null;
  lockedBy: string | null;
  lastError: string | null;
  dedupeKey: string | null;
  serialKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The queued jobs of one type: waiting for their time, and due (since `oldestDueAt` at the earliest). */
export interface QueuedJobsOfType {
  type: string;
  waiting: number;
  due: number;
  oldestDueAt: Date | null;
}

export interface EnqueueJob {
  type: string;
  /** A JSON object (so it reads back the same from either database). */
  payload: object;
  /** Not before this time; now when absent. */
  runAt?: Date;
  maxAttempts?: number;
  /** At most one job ever exists per key: enqueueing it again returns the first job. */
  dedupeKey?: string;
  /**
   * Jobs with the same key never run at the same time (on any instance) and start in the order they were
   * enqueued: a due job waits while one of its key runs or an earlier one of its key is due. See accountSerialKey.
   */
  serialKey?: string | null;
}

export interface ClaimOptions {
  workerId: string;
  now: Date;
  /** Only these types; all when absent. */
  types?: string[];
  /** A `running` job whose lease was last renewed longer ago than this belongs to a worker that died; it is taken over. */
  lockTimeoutSeconds: number;
}

interface JobRow {
  id: string;
  type: string;
  payload: unknown;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: unknown;
  locked_at: unknown;
  locked_by: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  serial_key: string | null;
  created_at: unknown;
  updated_at: unknown;
}

const JOB_COLUMNS: string[] = [
  'id',
  'type',
  'payload',
  'status',
  'attempts',
  'max_attempts',
  'run_at',
  'locked_at',
  'locked_by',
  'last_error',
  'dedupe_key',
  'serial_key',
  'created_at',
  'updated_at',
];

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    type: row.type,
    payload: parseJson<unknown>(row.payload, {}),
    status: row.status as JobStatus,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: toDate(row.run_at),
    lockedAt: toDateOrNull(row.locked_at),
    lockedBy: row.locked_by,
    lastError: row.last_error,
    dedupeKey: row.dedupe_key,
    serialKey: row.serial_key,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

export const truncateError = (message: string) => (message.length <= MAX_ERROR_LENGTH ? message : `${message.slice(0, MAX_ERROR_LENGTH - 1)}…`);

/**
 * The id of the job to run next, as a subquery; on PostgreSQL it locks that row and skips rows others hold.
 * A job with a serial key waits while another job of its key runs (even one whose worker died: that one
 * is taken over first, as any job whose lease ran out, so a dead worker never holds a key for good) or
 * while an earlier-enqueued job of its key is due.
 */
function selectNextClaimableId(db: Db, { now, types, lockTimeoutSeconds }: ClaimOptions) {
  const staleBefore = addSeconds(now, -lockTimeoutSeconds);
  const sameKey = (alias: string) => db(`jobs as ${alias}`).select(db.raw('1')).whereRaw(`${alias}.serial_key = j.serial_key`);
  const next = db('jobs as j')
    .select('j.id')
    .where((q) =>
      q
        .where((due) => due.where('j.status', 'queued').where('j.run_at', '<=', now))
        .orWhere((stale) => stale.where('j.status', 'running').where('j.locked_at', '<', staleBefore)),
    )
    .where((q) =>
      q
        .whereNull('j.serial_key')
        .orWhere('j.status', 'running')
        .orWhere((free) =>
          free
            .whereNotExists(sameKey('r').where('r.status', 'running'))
            .whereNotExists(sameKey('e').where('e.status', 'queued').where('e.run_at', '<=', now).whereRaw('e.seq < j.seq')),
        ),
    )
    .orderBy([{ column: 'j.run_at' }, { column: 'j.seq' }])
    .limit(1);
  if (types) next.whereIn('j.type', types);
  if (dialectOf(db) === 'postgres') next.forUpdate().skipLocked();
  return next;
}

async function claimOnce(db: Db, options: ClaimOptions): Promise<Job | undefined> {
  const rows: JobRow[] = await db('jobs')
    .where('id', selectNextClaimableId(db, options))
    .update({
      status: 'running',
      locked_at: options.now,
      locked_by: options.workerId,
      attempts: db.raw('attempts + 1'),
      updated_at: options.now,
    })
    .returning(JOB_COLUMNS);
  return rows[0] && toJob(rows[0]);
}

/** Adding jobs (once per dedupe key), putting them back in the queue, and the admin's view of it. */
function jobQueueRows(db: Db) {
  const isPostgres = dialectOf(db) === 'postgres';

  return {
    async findById(id: string): Promise<Job | undefined> {
      const row = await db('jobs').select(JOB_COLUMNS).where({ id }).first();
      return row && toJob(row);
    },

    /**
     * Adds a job; with a `dedupeKey` already taken it adds nothing and returns the existing job. Pass
     * `trx` to add it in the same transaction as the change that calls for it.
     */
    async enqueue(job: EnqueueJob, now: Date, trx: Db = db): Promise<Job> {
      const id = randomUUID();
      const insert = trx('jobs').insert({
        id,
        type: job.type,
        payload: toJson(job.payload),
        status: 'queued',
        attempts: 0,
        max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        run_at: job.runAt ?? now,
        dedupe_key: job.dedupeKey ?? null,
        serial_key: job.serialKey ?? null,
        // PostgreSQL numbers jobs by a sequence; SQLite's single writer makes the next number safe to read.
        ...(isPostgres ? {} : { seq: trx.raw('(SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs)') }),
        created_at: now,
        updated_at: now,
      });
      if (job.dedupeKey !== undefined) await insert.onConflict('dedupe_key').ignore();
      else await insert;
      const row = await trx('jobs')
        .select(JOB_COLUMNS)
        .where(job.dedupeKey !== undefined ? { dedupe_key: job.dedupeKey } : { id })
        .first();
      if (!row) throw new Error(`job ${id} vanished after insert`);
      return toJob(row);
    },

    /**
     * A periodic job (one per `dedupeKey`, whichever instance adds it first) made sure to be in the queue:
     * added due now, or put back if it had failed for good or finished; left alone if queued or running.
     */
    async ensureRecurring(job: EnqueueJob & { dedupeKey: string }, now: Date): Promise<Job> {
      const existing = await this.enqueue({ ...job, runAt: job.runAt ?? now }, now);
      if (existing.status !== 'failed' && existing.status !== 'done') return existing;
      await db('jobs')
        .where({ id: existing.id })
        .whereIn('status', ['failed', 'done'])
        .update({ status: 'queued', attempts: 0, run_at: now, locked_at: null, locked_by: null, updated_at: now });
      return (await this.findById(existing.id))!;
    },

    /** Puts a failed job back in the queue, due now, with a fresh set of attempts; undefined if it is not failed. */
    async retry(id: string, now: Date): Promise<Job | undefined> {
      const updated = await db('jobs').where({ id, status: 'failed' }).update({ status: 'queued', attempts: 0, run_at: now, updated_at: now });
      return updated > 0 ? this.findById(id) : undefined;
    },

    /** The most recently failed jobs first. */
    async listFailed(limit: number): Promise<Job[]> {
      const rows = await db('jobs')
        .select(JOB_COLUMNS)
        .where({ status: 'failed' })
        .orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }])
        .limit(limit);
      return rows.map(toJob);
    },

    /**
     * What the queue holds, by job type: how many wait for their time (`run_at` ahead: a reminder, a renewal, a
     * retry later on) and how many are due, with the oldest due one's time (long past it, the worker is behind).
     */
    async queuedByType(now: Date): Promise<QueuedJobsOfType[]> {
      const queued = () => db('jobs').select('type').count({ count: '*' }).where('status', 'queued').groupBy('type');
      const [waiting, due] = (await Promise.all([
        queued().where('run_at', '>', now),
        queued().min({ oldest: 'run_at' }).where('run_at', '<=', now),
      ])) as unknown as [{ type: string; count: number | string }[], { type: string; count: number | string; oldest: unknown }[]];
      const byType = new Map<string, QueuedJobsOfType>();
      const of = (type: string) => byType.get(type) ?? byType.set(type, { type, waiting: 0, due: 0, oldestDueAt: null }).get(type)!;
      for (const row of waiting) of(row.type).waiting = Number(row.count);
      for (const row of due) Object.assign(of(row.type), { due: Number(row.count), oldestDueAt: toDate(row.oldest) });
      return [...byType.values()].sort((a, b) => b.due - a.due || b.waiting - a.waiting || a.type.localeCompare(b.type));
    },

    async countByStatus(): Promise<Record<JobStatus, number>> {
      const rows: { status: string; count: number | string }[] = await db('jobs').select('status').count({ count: '*' }).groupBy('status');
      const counts: Record<JobStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
      for (const row of rows) {
        if ((JOB_STATUSES as readonly string[]).includes(row.status)) counts[row.status as JobStatus] = Number(row.count);
      }
      return counts;
    },
  };
}

/** What a worker does with a job: claims it, renews its lease while it runs, then completes, reschedules or fails it. */
function jobWorkerRows(db: Db) {
  return {
    /**
     * Takes the next due job (or one whose worker died) for `workerId` and returns it, or undefined.
     * One statement, so one transaction: `UPDATE … WHERE id = (SELECT … [FOR UPDATE SKIP LOCKED]) RETURNING`.
     * PostgreSQL: the row lock makes concurrent workers skip to other rows. Two workers that pick two jobs of
     * one serial key at the same instant (each statement's snapshot missing the other's claim) collide on the
     * unique index of running keys, and the loser looks again. SQLite: the statement holds the database's
     * single write lock from the select to the update.
     */
    async claimNext(options: ClaimOptions): Promise<Job | undefined> {
      for (let tries = 1; ; tries += 1) {
        try {
          return await claimOnce(db, options);
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
          // Lost every race this time (many claimers on few keys): the next poll looks again.
          if (tries >= CLAIM_TRIES) return undefined;
        }
      }
    },

    /** The worker is still running these jobs: their leases start again from `now` (only those it still holds). */
    async renewLeases(workerId: string, ids: string[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db('jobs').whereIn('id', ids).where({ status: 'running', locked_by: workerId }).update({ locked_at: now });
    },

    async complete(id: string, now: Date): Promise<void> {
      await db('jobs').where({ id }).update({ status: 'done', locked_at: null, locked_by: null, updated_at: now });
    },

    /** A periodic job's run went well: queued again for `runAt` with fresh attempts; `note` replaces `last_error`. */
    async reschedule(id: string, runAt: Date, note: string | null, now: Date): Promise<void> {
      await db('jobs')
        .where({ id })
        .update({
          status: 'queued',
          run_at: runAt,
          attempts: 0,
          last_error: note === null ? null : truncateError(note),
          locked_at: null,
          locked_by: null,
          updated_at: now,
        });
    },

    /** Records a failed attempt: back to `queued` at `retryAt`, or `failed` for good when null. */
    async fail(id: string, error: string, now: Date, retryAt: Date | null): Promise<void> {
      await db('jobs')
        .where({ id })
        .update({
          status: retryAt ? 'queued' : 'failed',
          ...(retryAt ? { run_at: retryAt } : {}),
          last_error: truncateError(error),
          locked_at: null,
          locked_by: null,
          updated_at: now,
        });
    },
  };
}

export function createJobsRepo(db: Db) {
  return { ...jobQueueRows(db), ...jobWorkerRows(db) };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;
