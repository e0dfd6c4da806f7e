import { dialectOf, type Db } from '../../db/knex.js';
import { DAILY_METRICS } from './daily-stats.repo.js';

/**
 * `overview_counts` (migration 025): figures that database triggers keep equal to a count of the rows,
 * in the transaction that changes them. Per UTC day: `signups`, `trials`, `revenue` (per currency,
 * succeeded or refunded payments less their refunds), `discounts` (per currency, what promo codes took off
 * succeeded payments, migration 034); about now (day `''`): `users`, `active_accounts`.
 */
export const COUNTED = {
  signups: 'signups',
  trials: 'trials',
  revenue: 'revenue',
  discounts: 'discounts',
  users: 'users',
  activeAccounts: 'active_accounts',
} as const;
type PerDayMetric = typeof COUNTED.signups | typeof COUNTED.trials | typeof COUNTED.revenue | typeof COUNTED.discounts;
const PER_DAY: PerDayMetric[] = [COUNTED.signups, COUNTED.trials, COUNTED.revenue, COUNTED.discounts];
const ABOUT_NOW = [COUNTED.users, COUNTED.activeAccounts];
/** The day of a figure about now. */
const NOW = '';

/** A count or sum per UTC day (`YYYY-MM-DD`); days without a value are absent. */
export type PerDay = Map<string, number>;

export interface CountsNow {
  users: number;
  activeAccounts: number;
}

/** The figures kept per UTC day. */
export interface DaySeries {
  signups: PerDay;
  trials: PerDay;
  /** By currency. */
  revenue: Map<string, PerDay>;
  /** By currency: what promo codes took off the day's succeeded payments. */
  discounts: Map<string, PerDay>;
  /** `daily_stats`: the active accounts' hourly snapshots, and each server's traffic by server id. */
  activeSnapshots: PerDay;
  traffic: Map<string, PerDay>;
}

export interface OverviewFigures extends DaySeries {
  now: CountsNow;
  /** The servers' names (a short table) by id, in the order they were added. */
  serverNames: Map<string, string>;
  /** `overview_history` (migration 029): moves whenever a day before today changes. */
  historyVersion: number;
}

/** A series: `day=value` pairs joined by commas (days are `YYYY-MM-DD`, or `''` for a figure about now). */
function unpack(packed: string | null): PerDay {
  const days: PerDay = new Map();
  for (const pair of packed ? packed.split(',') : []) {
    const at = pair.indexOf('=');
    days.set(pair.slice(0, at), Number(pair.slice(at + 1)));
  }
  return days;
}

interface Row {
  source: string;
  metric: string | null;
  part: string;
  packed: string | null;
  added: unknown;
}

/**
 * The overview's reads, each in one statement: one round trip, and on SQLite one turn of its single
 * connection. Each part is a range of a primary key (`overview_counts`, `daily_stats`: a few rows a day of
 * the range), the short table of servers or the one row of `overview_history`, whatever the number of
 * users, accounts or payments; each series comes back as one row (its days packed in a string), which
 * costs far less to read than a row a day.
 */
export function createOverviewRepo(db: Db) {
  // Written out: the statements are the same on every request, and knex would build them anew each time.
  const postgres = dialectOf(db) === 'postgres';
  const pack = postgres ? `string_agg(day || '=' || value, ',')` : `group_concat(day || '=' || value, ',')`;
  const addedAt = postgres ? 'extract(epoch from created_at)' : 'created_at';
  const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
  const daySeries = (days: string) => [
    `select 'count' as source, metric, currency as part, ${pack} as packed, cast(null as numeric) as added from overview_counts
      where metric in (${list(PER_DAY)}) and ${days} group by metric, currency`,
    `select 'stat', metric, server_id, ${pack}, null from daily_stats
      where metric in (${list([DAILY_METRICS.activeAccounts, DAILY_METRICS.traffic])}) and ${days} group by metric, server_id`,
    `select 'history', null, '', null, version from overview_history where id = 1`,
  ];
  const recentSql = [
    ...daySeries('day >= ?'),
    `select 'count', metric, currency, ${pack}, null from overview_counts where metric in (${list(ABOUT_NOW)}) and day = '' group by metric, currency`,
    `select 'server', null, id, name, ${addedAt} from masterservers`,
  ].join(' union all ');
  const historySql = daySeries('day >= ? and day < ?').join(' union all ');

  async function rowsOf(sql: string, bindings: string[]): Promise<Row[]> {
    const result: unknown = await db.raw(sql, bindings);
    // better-sqlite3 answers the rows, pg a result holding them.
    return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
  }
  const seriesOf = (rows: Row[], source: string, metric: string) => rows.filter((row) => row.source === source && row.metric === metric);
  const byPart = (rows: Row[], source: string, metric: string) => new Map(seriesOf(rows, source, metric).map((row) => [row.part, unpack(row.packed)]));
  const one = (rows: Row[], source: string, metric: string) => unpack(seriesOf(rows, source, metric)[0]?.packed ?? null);
  const daySeriesOf = (rows: Row[]): DaySeries & { historyVersion: number } => ({
    signups: one(rows, 'count', COUNTED.signups),
    trials: one(rows, 'count', COUNTED.trials),
    revenue: byPart(rows, 'count', COUNTED.revenue),
    discounts: byPart(rows, 'count', COUNTED.discounts),
    activeSnapshots: one(rows, 'stat', DAILY_METRICS.activeAccounts),
    traffic: byPart(rows, 'stat', DAILY_METRICS.traffic),
    historyVersion: Number(rows.find((row) => row.source === 'history')?.added ?? 0),
  });

  return {
    /** Everything the overview shows of the days from `fromDay` (`YYYY-MM-DD`) on, and of now. */
    async readFigures(fromDay: string): Promise<OverviewFigures> {
      const rows = await rowsOf(recentSql, [fromDay, fromDay]);
      const now = (metric: string) => one(rows, 'count', metric).get(NOW) ?? 0;
      const servers = rows.filter((row) => row.source === 'server').sort((a, b) => Number(a.added) - Number(b.added));
      return {
        ...daySeriesOf(rows),
        now: { users: now(COUNTED.users), activeAccounts: now(COUNTED.activeAccounts) },
        serverNames: new Map(servers.map((row) => [row.part, row.packed ?? ''])),
      };
    },

    /** The per-day figures of the days from `fromDay` to before `toDay`, with the history's version read in the same statement. */
    async readHistory(fromDay: string, toDay: string): Promise<DaySeries & { historyVersion: number }> {
      return daySeriesOf(await rowsOf(historySql, [fromDay, toDay, fromDay, toDay]));
    },
    /** Referral sign-ups and referred customers' first payments since the start of `fromDay` (two index ranges). */
    async referralsSince(fromDay: string): Promise<{ signedUp: number; paid: number }> {
      const from = new Date(`${fromDay}T00:00:00Z`);
      const [signedUp, paid] = await Promise.all([
        db('referrals').where('created_at', '>=', from).count({ n: '*' }).first(),
        db('referrals').where('first_paid_at', '>=', from).count({ n: '*' }).first(),
      ]);
      return { signedUp: Number(signedUp?.n ?? 0), paid: Number(paid?.n ?? 0) };
    },

    /** All users and the VPN accounts active, now. */
    async countsNow(): Promise<CountsNow> {
      const rows: Array<{ metric: string; value: unknown }> = await db('overview_counts')
        .whereIn('metric', ABOUT_NOW)
        .where('day', NOW)
        .select('metric', 'value');
      const valueOf = (metric: string) => Number(rows.find((row) => row.metric === metric)?.value ?? 0);
      return { users: valueOf(COUNTED.users), activeAccounts: valueOf(COUNTED.activeAccounts) };
    },
  };
}

export type OverviewRepo = ReturnType<typeof createOverviewRepo>;
