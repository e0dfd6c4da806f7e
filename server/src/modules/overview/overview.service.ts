import type { AdminOverview, OverviewRange, OverviewServerTraffic } from '../../../../shared/overview.js';
import type { Clock } from '../../lib/clock.js';
import { addDays, DAILY_METRICS, utcDay, WHOLE_SHOP, type DailyStat, type DailyStatsRepo } from './daily-stats.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { OverviewRepo, PerDay } from './overview.repo.js';

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

/**
 * The admin's overview: per UTC day of the last 7, 30 or 90 days, signups, trials, revenue, active
 * accounts and each server's traffic, with the shop's totals. Every figure is one indexed read
 * (overview.repo.ts); the daily snapshot (`takeSnapshot`, hourly) keeps the history of what cannot be
 * read back from rows (active accounts, the user count).
 */
export function createOverviewService(deps: { repo: OverviewRepo; stats: DailyStatsRepo; settings: Pick<SettingsService, 'getAppSettings'>; clock: Clock }) {
  const { repo, stats, clock } = deps;

  /** Today's active accounts and user count (full counts: the hourly job, not a request, pays for them). */
  async function takeSnapshot(): Promise<{ activeAccounts: number; users: number }> {
    const now = clock();
    const day = utcDay(now);
    const activeAccounts = await repo.countActiveAccounts();
    const users = await repo.countAllUsers();
    await stats.setValue({ metric: DAILY_METRICS.activeAccounts, day, serverId: WHOLE_SHOP, value: activeAccounts }, now);
    await stats.setValue({ metric: DAILY_METRICS.usersTotal, day, serverId: WHOLE_SHOP, value: users }, now);
    return { activeAccounts, users };
  }

  /** All users: the snapshot and the signups since; the first read on a new install takes the snapshot. */
  async function countUsers(): Promise<number> {
    return (await repo.countUsersSinceSnapshot()) ?? (await takeSnapshot()).users;
  }

  return {
    takeSnapshot,

    async getOverview(days: OverviewRange): Promise<AdminOverview> {
      const now = clock();
      const dates = rangeOfDays(utcDay(now), days);
      const firstDay = dates[0]!;
      const from = new Date(`${firstDay}T00:00:00Z`);
      const { currency } = await deps.settings.getAppSettings();
      const [signups, trials, revenue, otherCurrencies, activeHistory, activeNow, traffic, names, users] = await Promise.all([
        repo.signupsPerDay(from),
        repo.trialsPerDay(from),
        repo.revenuePerDay(from, currency),
        repo.revenueInOtherCurrencies(from, currency),
        stats.listSince(DAILY_METRICS.activeAccounts, firstDay),
        repo.countActiveAccounts(),
        stats.listSince(DAILY_METRICS.traffic, firstDay),
        repo.serverNames(),
        countUsers(),
      ]);
      const snapshots = new Map(activeHistory.map((stat) => [stat.day, stat.value]));
      const today = dates.at(-1);
      const series = {
        signups: valuesOn(dates, signups),
        trials: valuesOn(dates, trials),
        revenue: valuesOn(dates, revenue),
        activeAccounts: dates.map((day) => (day === today ? activeNow : (snapshots.get(day) ?? null))),
        traffic: trafficByServer(dates, traffic, names),
      };
      return {
        days, dates, ...series, currency, otherCurrencies,
        totals: {
          users, activeAccounts: activeNow, revenue: sum(series.revenue), signups: sum(series.signups), trials: sum(series.trials),
          trafficBytes: sum(series.traffic.map((server) => sum(server.bytes))),
        },
      };
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
