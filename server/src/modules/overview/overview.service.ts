import type { AdminOverview, OverviewRange, OverviewServerTraffic } from '../../../../shared/overview.js';
import type { Clock } from '../../lib/clock.js';
import { addDays, DAILY_METRICS, utcDay, WHOLE_SHOP, type DailyStat, type DailyStatsRepo } from './daily-stats.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import { COUNTED, type DailyCount, type OverviewRepo } from './overview.repo.js';

/** A count or sum per UTC day (`YYYY-MM-DD`); days without a value are absent. */
type PerDay = Map<string, number>;

const REMOVED_SERVER = 'Removed server';

/** The UTC days from `days - 1` days before `today` to `today`, oldest first. */
export function rangeOfDays(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
}

const valuesOn = (dates: string[], perDay: PerDay) => dates.map((day) => perDay.get(day) ?? 0);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** One series per server (every server we have, and any removed one that still has traffic in the range). */
function trafficByServer(dates: string[], stats: DailyStat[], names: Map<string, string>): OverviewServerTraffic[] {
  const byServer = new Map<string, PerDay>([...names.keys()].map((id) => [id, new Map()]));
  for (const stat of stats) {
    const days = byServer.get(stat.serverId) ?? new Map<string, number>();
    days.set(stat.day, (days.get(stat.day) ?? 0) + stat.value);
    byServer.set(stat.serverId, days);
  }
  return [...byServer].map(([serverId, days]) => ({ serverId, name: names.get(serverId) ?? REMOVED_SERVER, bytes: valuesOn(dates, days) }));
}

/** Per day (and for revenue, per currency) of the range: the counters' values. */
function byDay(counts: DailyCount[], metric: DailyCount['metric'], currency = ''): PerDay {
  return new Map(counts.filter((count) => count.metric === metric && count.currency === currency).map((count) => [count.day, count.value]));
}

/** Revenue in the range in each currency but `currency`, by currency (a currency with nothing kept is left out). */
function otherCurrenciesOf(counts: DailyCount[], currency: string): AdminOverview['otherCurrencies'] {
  const totals = new Map<string, number>();
  for (const count of counts) {
    if (count.metric === COUNTED.revenue && count.currency !== currency) totals.set(count.currency, (totals.get(count.currency) ?? 0) + count.value);
  }
  return [...totals].filter(([, revenue]) => revenue !== 0).sort(([a], [b]) => a.localeCompare(b)).map(([other, revenue]) => ({ currency: other, revenue }));
}

/**
 * The admin's overview: per UTC day of the last 7, 30 or 90 days, signups, trials, revenue, active
 * accounts and each server's traffic, with the shop's totals. Every figure is read from counters kept
 * as rows change (`overview_counts`, migration 025) or from `daily_stats`: a few rows a day of the range,
 * whatever the number of users. The hourly snapshot (`takeSnapshot`) keeps the history of the active
 * accounts, which no row can tell afterwards.
 */
export function createOverviewService(deps: { repo: OverviewRepo; stats: DailyStatsRepo; settings: Pick<SettingsService, 'getAppSettings'>; clock: Clock }) {
  const { repo, stats, clock } = deps;

  /** Writes today's active accounts to `daily_stats` (a past day keeps the last one of its hours). */
  async function takeSnapshot(): Promise<{ activeAccounts: number; users: number }> {
    const now = clock();
    const counts = await repo.countsNow();
    await stats.setValue({ metric: DAILY_METRICS.activeAccounts, day: utcDay(now), serverId: WHOLE_SHOP, value: counts.activeAccounts }, now);
    return counts;
  }

  return {
    takeSnapshot,

    async getOverview(days: OverviewRange): Promise<AdminOverview> {
      const now = clock();
      const dates = rangeOfDays(utcDay(now), days);
      const firstDay = dates[0]!;
      const [{ currency }, figures] = await Promise.all([deps.settings.getAppSettings(), repo.readFigures(firstDay)]);
      const { counts, now: current, activeSnapshots, traffic, serverNames } = figures;
      const snapshots = new Map(activeSnapshots.map((stat) => [stat.day, stat.value]));
      const today = dates.at(-1);
      const series = {
        signups: valuesOn(dates, byDay(counts, COUNTED.signups)),
        trials: valuesOn(dates, byDay(counts, COUNTED.trials)),
        revenue: valuesOn(dates, byDay(counts, COUNTED.revenue, currency)),
        activeAccounts: dates.map((day) => (day === today ? current.activeAccounts : (snapshots.get(day) ?? null))),
        traffic: trafficByServer(dates, traffic, serverNames),
      };
      return {
        days, dates, ...series, currency, otherCurrencies: otherCurrenciesOf(counts, currency),
        totals: {
          users: current.users, activeAccounts: current.activeAccounts, revenue: sum(series.revenue), signups: sum(series.signups), trials: sum(series.trials),
          trafficBytes: sum(series.traffic.map((server) => sum(server.bytes))),
        },
      };
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
