import type { Knex } from 'knex';
import { RETENTION_DEFAULTS, type AdminSettings } from '../../../../shared/app-settings.js';
import type { Db } from '../../db/knex.js';
import { addSeconds, type Clock } from '../../lib/clock.js';

const DAY_SECONDS = 24 * 3600;
/** Rows deleted per statement: each one is a short write (SQLite's single writer is never held for long). */
export const PURGE_BATCH_ROWS = 5000;
/** A pass stops after the batch that takes it past this (a shutdown waits for the job), and the job continues shortly after. */
export const PURGE_TIME_BUDGET_MS = 20_000;

/** Rows older than these are deleted; every time is `now` minus a retention. */
export interface PurgeCutoffs {
  now: Date;
  /** Codes, sessions, refresh tokens, provisioning logs: the retention setting. */
  rows: Date;
  /** Exactly-once gates (processed webhook ids, finished jobs with their dedupe keys): at least `minGateDays`. */
  gates: Date;
  audit: Date;
}

export interface PurgeRule {
  table: string;
  /** Narrows a query on `table` to the rows past retention (each rule is a range on an index). */
  narrow(query: Knex.QueryBuilder, cutoffs: PurgeCutoffs): Knex.QueryBuilder;
}

export interface PurgeResult {
  /** Rows deleted, by table (refresh tokens that went with their session by cascade are not counted). */
  deleted: Record<string, number>;
  /** The time budget ran out with rows left: the job should run again soon. */
  more: boolean;
}

export function purgeCutoffs(now: Date, settings: Pick<AdminSettings, 'retentionDays' | 'auditRetentionDays'>): PurgeCutoffs {
  const daysAgo = (days: number) => addSeconds(now, -days * DAY_SECONDS);
  return {
    now,
    rows: daysAgo(settings.retentionDays),
    gates: daysAgo(Math.max(settings.retentionDays, RETENTION_DEFAULTS.minGateDays)),
    audit: daysAgo(settings.auditRetentionDays),
  };
}

/**
 * What is deleted, in order (refresh tokens before their sessions: a session's delete would take all
 * its tokens with it, an unbounded number, in one statement).
 * - sign-in codes: every code expires 10 minutes after it is sent, used or not;
 * - refresh tokens that expired, or were replaced by a newer one, longer ago than the retention, but
 *   never one that has not expired yet: a replayed old token must still find its row and revoke its
 *   session; and the tokens of sessions signed out longer ago than the retention;
 * - sessions that expired, or were revoked (signed out), longer ago than the retention;
 * - processed webhook ids, and jobs that finished (done or failed) — never a queued or running job,
 *   nor the row of a periodic job; reversals kept for a payment that was confirmed since, or that never
 *   turned out to be ours (another product on the same Stripe account), after as long as webhook ids;
 * - the bot's one-time links (to link a Telegram, to pay on the site) that expired longer ago than the retention;
 * - provisioning and payment logs; the audit log by its own retention.
 */
export function purgeRules(periodicJobKeys: readonly string[]): PurgeRule[] {
  return [
    { table: 'otp_codes', narrow: (q, c) => q.where('expires_at', '<', c.rows) },
    {
      table: 'refresh_tokens',
      narrow: (q, c) => q.where('expires_at', '<', c.now).where((old) => old.where('expires_at', '<', c.rows).orWhere('rotated_at', '<', c.rows)),
    },
    // A signed-out session's tokens in batches of their own, so the session's delete cascades to almost nothing.
    { table: 'refresh_tokens', narrow: (q, c) => q.whereIn('session_id', (revoked) => revoked.select('id').from('sessions').where('revoked_at', '<', c.rows)) },
    { table: 'sessions', narrow: (q, c) => q.where('expires_at', '<', c.rows) },
    { table: 'sessions', narrow: (q, c) => q.where('revoked_at', '<', c.rows) },
    { table: 'webhook_events', narrow: (q, c) => q.where('processed_at', '<', c.gates) },
    // Telegram retries an update for at most a day: older claims guard nothing.
    { table: 'telegram_updates', narrow: (q, c) => q.where('received_at', '<', c.gates) },
    { table: 'telegram_link_tokens', narrow: (q, c) => q.where('expires_at', '<', c.rows) },
    { table: 'telegram_pay_links', narrow: (q, c) => q.where('expires_at', '<', c.rows) },
    { table: 'kept_reversals', narrow: (q, c) => q.where('created_at', '<', c.gates) },
    {
      table: 'jobs',
      narrow: (q, c) => {
        q.whereIn('status', ['done', 'failed']).where('updated_at', '<', c.gates);
        if (periodicJobKeys.length > 0) q.where((key) => key.whereNull('dedupe_key').orWhereNotIn('dedupe_key', periodicJobKeys));
        return q;
      },
    },
    { table: 'vpn_account_logs', narrow: (q, c) => q.where('created_at', '<', c.rows) },
    { table: 'audit_log', narrow: (q, c) => q.where('created_at', '<', c.audit) },
  ];
}

/**
 * Nothing kept forever: deletes the rows past their retention (settings: `retentionDays`, and
 * `auditRetentionDays` for the audit log), a bounded batch per statement, each statement its own
 * short transaction. A pass ends when nothing is left, or after the batch that uses up the time
 * budget (`more`: the job runs again soon).
 */
export function createRetentionPurge(deps: {
  db: Db;
  settings: { getAppSettings(): Promise<Pick<AdminSettings, 'retentionDays' | 'auditRetentionDays'>> };
  clock: Clock;
  /** Dedupe keys of the periodic jobs: their rows are never deleted, whatever their status. */
  periodicJobKeys: readonly string[];
  batchRows?: number;
  budgetMs?: number;
}) {
  const { db } = deps;
  const batchRows = deps.batchRows ?? PURGE_BATCH_ROWS;
  const budgetMs = deps.budgetMs ?? PURGE_TIME_BUDGET_MS;
  const rules = purgeRules(deps.periodicJobKeys);

  /** `DELETE … WHERE id IN (SELECT id … LIMIT n)`: the same bounded statement on SQLite and PostgreSQL. */
  async function deleteBatch(rule: PurgeRule, cutoffs: PurgeCutoffs): Promise<number> {
    const ids = rule.narrow(db(rule.table).select('id'), cutoffs).limit(batchRows);
    return db(rule.table).whereIn('id', ids).delete();
  }

  return {
    async purge(): Promise<PurgeResult> {
      const started = performance.now();
      const cutoffs = purgeCutoffs(deps.clock(), await deps.settings.getAppSettings());
      const deleted: Record<string, number> = {};
      for (const rule of rules) {
        for (;;) {
          const count = await deleteBatch(rule, cutoffs);
          deleted[rule.table] = (deleted[rule.table] ?? 0) + count;
          if (count < batchRows) break;
          if (performance.now() - started > budgetMs) return { deleted, more: true };
        }
      }
      return { deleted, more: false };
    },
  };
}

export type RetentionPurge = ReturnType<typeof createRetentionPurge>;
