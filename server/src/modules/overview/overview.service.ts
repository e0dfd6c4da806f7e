import type { AdminOverview, OverviewRange, OverviewServerTraffic } from '../../../../shared/overview.js';
import type { Clock } from '../../lib/clock.js';
import { addDays, DAILY_METRICS, utcDay, WHOLE_SHOP, type DailyStatsRepo } from './daily-stats.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { DaySeries, OverviewRepo, PerDay } from './overview.repo.js';

const REMOVED_SERVER = 'Removed server';
const MS_PER_DAY = 86_400_000;

/** The UTC days from `days - 1` days before `today` to `today`, oldest first. */
export function rangeOfDays(today: string, days: number): string[] {
  const first = Date.parse(`${today}T00:00:00Z`) - (days - 1) * MS_PER_DAY;
  return Array.from({ length: days }, (_, i) => utcDay(new Date(first + i * MS_PER_DAY)));
}

const valuesOn = (dates: string[], perDay: PerDay | undefined) => dates.map((day) => perDay?.get(day) ?? 0);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** One series per server (every server we have, and any removed one that still has traffic in the range). */
function trafficByServer(dates: string[], traffic: Map<string, PerDay>, names: Map<string, string>): OverviewServerTraffic[] {
  const servers = [...names.keys(), ...[...traffic.keys()].filter((id) => !names.has(id))];
  return servers.map((serverId) => ({ serverId, name: names.get(serverId) ?? REMOVED_SERVER, bytes: valuesOn(dates, traffic.get(serverId)) }));
}

/** Revenue in the range in each currency but `currency`, by currency (a currency with nothing kept is left out). */
function otherCurrenciesOf(dates: string[], revenue: Map<string, PerDay>, currency: string): AdminOverview['otherCurrencies'] {
  return [...revenue].filter(([other]) => other !== currency).map(([other, days]) => ({ currency: other, revenue: sum(valuesOn(dates, days)) }))
    .filter((other) => other.revenue !== 0).sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Each series of `recent` over the same series of `history` (their days do not overlap). */
function joinDays(history: DaySeries, recent: DaySeries): DaySeries {
  const join = (old: PerDay, now: PerDay): PerDay => new Map([...old, ...now]);
  const joinParts = (old: Map<string, PerDay>, now: Map<string, PerDay>) =>
    new Map([...old, ...now].map(([part]) => [part, join(old.get(part) ?? new Map(), now.get(part) ?? new Map())]));
  return {
    signups: join(history.signups, recent.signups), trials: join(history.trials, recent.trials), revenue: joinParts(history.revenue, recent.revenue),
    activeSnapshots: join(history.activeSnapshots, recent.activeSnapshots), traffic: joinParts(history.traffic, recent.traffic),
  };
}

/** The days of a range before yesterday, as last read, and the `overview_history` version they were read at. */
interface KeptHistory {
  fromDay: string;
  toDay: string;
  version: number;
  series: DaySeries;
}

/**
 * The admin's overview: per UTC day of the last 7, 30 or 90 days, signups, trials, revenue, active
 * accounts and each server's traffic, with the shop's totals. Every figure is read from counters kept
 * as rows change (`overview_counts`, migration 025) or from `daily_stats`: a few rows a day of the range,
 * whatever the number of users. The hourly snapshot (`takeSnapshot`) keeps the history of the active
 * accounts, which no row can tell afterwards.
 *
 * The days before yesterday are kept in memory per range, with the `overview_history` version they were
 * read at (migration 029: triggers move it when a past day changes). A request reads yesterday, today,
 * the figures about now and that version in one statement, and the older days again only when the
 * version moved or the range's days did (a new UTC day).
 */
export function createOverviewService(deps: { repo: OverviewRepo; stats: DailyStatsRepo; settings: Pick<SettingsService, 'getAppSettings'>; clock: Clock }) {
  const { repo, stats, clock } = deps;
  const kept = new Map<OverviewRange, KeptHistory>();

  /** The days from `fromDay` to before `toDay`, from memory unless they changed since they were read. */
  async function historyOf(days: OverviewRange, fromDay: string, toDay: string, version: number): Promise<DaySeries> {
    const known = kept.get(days);
    if (known && known.fromDay === fromDay && known.toDay === toDay && known.version === version) return known.series;
    const { historyVersion, ...series } = await repo.readHistory(fromDay, toDay);
    kept.set(days, { fromDay, toDay, version: historyVersion, series });
    return series;
  }

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
      // Yesterday is read fresh too: a write to it may come before the database's clock turns the day.
      const yesterday = dates.length > 1 ? addDays(dates.at(-1)!, -1) : firstDay;
      const [{ currency }, recent] = await Promise.all([deps.settings.getAppSettings(), repo.readFigures(yesterday)]);
      const figures = { ...recent, ...joinDays(await historyOf(days, firstDay, yesterday, recent.historyVersion), recent) };
      const snapshots = figures.activeSnapshots;
      const today = dates.at(-1);
      const series = {
        signups: valuesOn(dates, figures.signups),
        trials: valuesOn(dates, figures.trials),
        revenue: valuesOn(dates, figures.revenue.get(currency)),
        activeAccounts: dates.map((day) => (day === today ? figures.now.activeAccounts : (snapshots.get(day) ?? null))),
        traffic: trafficByServer(dates, figures.traffic, figures.serverNames),
      };
      return {
        days, dates, ...series, currency, otherCurrencies: otherCurrenciesOf(dates, figures.revenue, currency),
        totals: {
          users: figures.now.users, activeAccounts: figures.now.activeAccounts, revenue: sum(series.revenue), signups: sum(series.signups), trials: sum(series.trials),
          trafficBytes: sum(series.traffic.map((server) => sum(server.bytes))),
        },
      };
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
