import type { TrafficReset } from '../../../../../shared/plans.js';
import { DAY_MS } from '../../../../../shared/constants.js';
import type { Db } from '../../../db/knex.js';
import { toBool, toDate, toDateOrNull } from '../../../db/values.js';

/** The traffic rules of an account's plan, read by its plan id when they are applied (the plan's current rules). */
export interface PlanTrafficRules {
  planId: string;
  dataLimitBytes: number;
  trafficReset: TrafficReset;
  trafficCarryOver: boolean;
  graceDays: number;
  graceDataBytes: number | null;
}

/** One change the store made to an account's data, once: a month's reset, the grace limit at a paid end, a renewal's carry-over. */
export interface TrafficStep {
  accountId: string;
  /** `reset:<paid period>:<month>`, `grace:<paid end>` or `renewal:<transaction>`. */
  key: string;
  /** The job that claimed it; null for a renewal's carry-over (its delivery is one job already). */
  jobId: string | null;
  /** What the panel said was used when it was claimed. */
  usedBefore: number | null;
  /** Unused data added to the allowance. */
  carried: number;
  /** The data limit it sets. */
  dataLimit: number | null;
  doneAt: Date | null;
}

/** An account on a monthly-reset plan, with its paid period that holds `now`. */
export interface MonthlyCandidate {
  accountId: string;
  periodId: string;
  startsAt: Date;
  endsAt: Date;
}

/** An account whose plan gives grace data, past its paid end. */
export interface GraceCandidate {
  accountId: string;
  paidEnd: Date;
  graceDays: number;
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const toStep = (row: Record<string, unknown>): TrafficStep => ({
  accountId: row.vpn_account_id as string,
  key: row.step_key as string,
  jobId: (row.job_id as string | null) ?? null,
  usedBefore: numberOrNull(row.used_before),
  carried: Number(row.carried ?? 0),
  dataLimit: numberOrNull(row.data_limit),
  doneAt: toDateOrNull(row.done_at),
});

/** The most grace days a plan can give (shared/plans.ts): accounts whose paid end is older are past any grace. */
const GRACE_DAYS_MAX = 30;

/**
 * What the plans' traffic rules are applied with: the rules of an account's plan, the accounts due a monthly reset
 * or a grace limit (a page at a time, by account id), and the steps taken (`plan_traffic_steps`, migration 053).
 */
export function createPlanTrafficRepo(db: Db) {
  /** Accounts with a panel user, which the store can change. */
  const provisioned = () =>
    db('vpn_accounts as a')
      .join('plans as pl', 'pl.id', 'a.plan_id')
      .whereNotNull('a.subscription_url')
      .whereNotNull('a.master_server_id')
      .whereNot('a.status', 'suspended');

  return {
    async rulesOfAccount(accountId: string): Promise<PlanTrafficRules | null> {
      const row = await db('vpn_accounts as a')
        .join('plans as p', 'p.id', 'a.plan_id')
        .where('a.id', accountId)
        .select('p.id', 'p.data_limit', 'p.traffic_reset', 'p.traffic_carry_over', 'p.grace_days', 'p.grace_data_limit')
        .first();
      if (!row) return null;
      return {
        planId: row.id as string,
        dataLimitBytes: Number(row.data_limit),
        trafficReset: row.traffic_reset === 'monthly' ? 'monthly' : 'none',
        trafficCarryOver: toBool(row.traffic_carry_over),
        graceDays: Number(row.grace_days ?? 0),
        graceDataBytes: numberOrNull(row.grace_data_limit),
      };
    },

    /** Accounts on a monthly-reset plan after `afterId`, with their paid period (still counting) that holds `now`. */
    async listMonthlyCandidates(now: Date, afterId: string, limit: number): Promise<MonthlyCandidate[]> {
      const rows = await provisioned()
        .join('paid_periods as pp', 'pp.vpn_account_id', 'a.id')
        .where('pl.traffic_reset', 'monthly')
        .whereNull('pp.voided_at')
        .where('pp.starts_at', '<=', now)
        .where('pp.ends_at', '>', now)
        .where('a.id', '>', afterId)
        .orderBy([{ column: 'a.id' }, { column: 'pp.starts_at' }])
        .limit(limit)
        .select('a.id as account_id', 'pp.id as period_id', 'pp.starts_at', 'pp.ends_at');
      return rows.map((row: Record<string, unknown>) => ({
        accountId: row.account_id as string,
        periodId: row.period_id as string,
        startsAt: toDate(row.starts_at),
        endsAt: toDate(row.ends_at),
      }));
    },

    /** Accounts after `afterId` whose plan gives grace data and whose paid end is before `until`, within the longest grace of `now`. */
    async listGraceCandidates(now: Date, until: Date, afterId: string, limit: number): Promise<GraceCandidate[]> {
      const rows = await provisioned()
        .where('pl.grace_days', '>', 0)
        .whereNotNull('pl.grace_data_limit')
        .where('a.paid_until', '<=', until)
        .where('a.paid_until', '>', new Date(now.getTime() - GRACE_DAYS_MAX * DAY_MS))
        .where('a.id', '>', afterId)
        .orderBy('a.id')
        .limit(limit)
        .select('a.id as account_id', 'a.paid_until', 'pl.grace_days');
      return rows.map((row: Record<string, unknown>) => ({
        accountId: row.account_id as string,
        paidEnd: toDate(row.paid_until),
        graceDays: Number(row.grace_days),
      }));
    },

    /** Which of these steps were taken (or claimed) already, as `<account>|<key>`. */
    async takenSteps(accountIds: string[], keys: string[]): Promise<Set<string>> {
      if (accountIds.length === 0) return new Set();
      const rows = await db('plan_traffic_steps').whereIn('vpn_account_id', accountIds).whereIn('step_key', keys).select('vpn_account_id', 'step_key');
      return new Set(rows.map((row: Record<string, unknown>) => `${row.vpn_account_id as string}|${row.step_key as string}`));
    },

    async findStep(accountId: string, key: string): Promise<TrafficStep | undefined> {
      const row = await db('plan_traffic_steps').where({ vpn_account_id: accountId, step_key: key }).first();
      return row && toStep(row);
    },

    /**
     * Records a step with the numbers it will set, before the panel is called, unless it is recorded already: returns the
     * step as stored (the first claim's, whoever made it) and whether this call recorded it.
     */
    async claimStep(step: Omit<TrafficStep, 'doneAt'>, now: Date): Promise<{ step: TrafficStep; claimed: boolean }> {
      const inserted = await db('plan_traffic_steps')
        .insert({
          vpn_account_id: step.accountId,
          step_key: step.key,
          job_id: step.jobId,
          used_before: step.usedBefore,
          carried: step.carried,
          data_limit: step.dataLimit,
          created_at: now,
        })
        .onConflict(['vpn_account_id', 'step_key'])
        .ignore()
        .returning('id');
      return { step: (await this.findStep(step.accountId, step.key))!, claimed: inserted.length > 0 };
    },

    async markDone(accountId: string, key: string, now: Date, trx: Db = db): Promise<void> {
      await trx('plan_traffic_steps').where({ vpn_account_id: accountId, step_key: key }).whereNull('done_at').update({ done_at: now });
    },
  };
}

export type PlanTrafficRepo = ReturnType<typeof createPlanTrafficRepo>;
