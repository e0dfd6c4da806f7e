import type { AdminOverview, OverviewRange, OverviewServerTraffic } from '../../../../shared/overview.js';
import type { CommitToken } from '../../db/commit-token.js';
import type { Clock } from '../../lib/clock.js';
import { KeptJson } from '../../lib/kept-json.js';
import { keptUntilCommit } from '../../lib/kept-until-commit.js';
import { addDays, DAILY_METRICS, utcDay, WHOLE_SHOP, type DailyStatsRepo } from './daily-stats.repo.js';
import type { SettingsService } from '../settings/index.js';
import type { DaySeries, OverviewRepo, PerDay } from './overview.repo.js';
import { DAY_MS } from '../../../../shared/constants.js';

const REMOVED_SERVER = 'Removed server';

/** The UTC days from `days - 1` days before `today` to `today`, oldest first. */
export function rangeOfDays(today: string, days: number): string[] {
  const first = Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS;
  return Array.from({ length: days }, (_, i) => utcDay(new Date(first + i * DAY_MS)));
}

const valuesOn = (dates: string[], perDay: PerDay | undefined) => dates.map((day) => perDay?.get(day) ?? 0);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** One series per server (every server we have, and any removed one that still has traffic in the range). */
function trafficByServer(history: KeptHistory, recentDates: string[], traffic: Map<string, PerDay>, names: Map<string, string>): OverviewServerTraffic[] {
  const removed = [...new Set([...history.traffic.keys(), ...traffic.keys()])].filter((id) => !names.has(id));
  const none = history.dates.map(() => 0);
  return [...names.keys(), ...removed].map((serverId) => ({
    serverId,
    name: names.get(serverId) ?? REMOVED_SERVER,
    bytes: [...(history.traffic.get(serverId) ?? none), ...valuesOn(recentDates, traffic.get(serverId))],
  }));
}

/** Revenue in the range in each currency but `currency`, by currency (a currency with nothing kept is left out). */
function otherCurrenciesOf(history: KeptHistory, recentDates: string[], revenue: Map<string, PerDay>, currency: string): AdminOverview['otherCurrencies'] {
  const currencies = [...new Set([...history.revenue.keys(), ...revenue.keys()])].filter((other) => other !== currency);
  return currencies
    .map((other) => ({ currency: other, revenue: sum(history.revenue.get(other) ?? []) + sum(valuesOn(recentDates, revenue.get(other))) }))
    .filter((other) => other.revenue !== 0)
    .sort((a, b) => a.currency.localeCompare(b.currency));
}

/** The days before yesterday of a range, built into the answer's series once, and the `overview_history` version they were read at. */
interface KeptHistory {
  fromDay: string;
  toDay: string;
  version: number;
  dates: string[];
  signups: number[];
  trials: number[];
  /** By currency. */
  revenue: Map<string, number[]>;
  discounts: Map<string, number[]>;
  activeAccounts: Array<number | null>;
  /** By server id. */
  traffic: Map<string, number[]>;
}

function buildHistory(dates: string[], series: DaySeries): Omit<KeptHistory, 'fromDay' | 'toDay' | 'version'> {
  const byPart = (parts: Map<string, PerDay>) => new Map([...parts].map(([part, days]) => [part, valuesOn(dates, days)]));
  return {
    dates,
    signups: valuesOn(dates, series.signups),
    trials: valuesOn(dates, series.trials),
    revenue: byPart(series.revenue),
    discounts: byPart(series.discounts),
    activeAccounts: dates.map((day) => series.activeSnapshots.get(day) ?? null),
    traffic: byPart(series.traffic),
  };
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
 * version moved or the range's days did (a new UTC day). With `commitToken`, the answer's JSON is kept per
 * range and day until anything is committed to the database (kept-until-commit.ts): an admin who keeps the
 * overview open, or several, costs one read per change, not one per visit.
 */
export function createOverviewService(deps: {
  repo: OverviewRepo;
  stats: DailyStatsRepo;
  settings: Pick<SettingsService, 'getAppSettings'>;
  clock: Clock;
  commitToken?: CommitToken;
}) {
  const { repo, stats, clock } = deps;
  const kept = new Map<OverviewRange, KeptHistory>();

  /** The days from `fromDay` to before `toDay`, from memory unless they changed since they were read. */
  async function historyOf(days: OverviewRange, fromDay: string, toDay: string, version: number): Promise<KeptHistory> {
    const known = kept.get(days);
    if (known && known.fromDay === fromDay && known.toDay === toDay && known.version === version) return known;
    const { historyVersion, ...series } = await repo.readHistory(fromDay, toDay);
    const history = { fromDay, toDay, version: historyVersion, ...buildHistory(rangeOfDays(addDays(toDay, -1), days - 2), series) };
    kept.set(days, history);
    return history;
  }

  /** Writes today's active accounts to `daily_stats` (a past day keeps the last one of its hours). */
  async function takeSnapshot(): Promise<{ activeAccounts: number; users: number }> {
    const now = clock();
    const counts = await repo.countsNow();
    await stats.setValue({ metric: DAILY_METRICS.activeAccounts, day: utcDay(now), serverId: WHOLE_SHOP, value: counts.activeAccounts }, now);
    return counts;
  }

  async function getOverview(days: OverviewRange): Promise<AdminOverview> {
    const today = utcDay(clock());
    // Yesterday is read fresh too: a write to it may come before the database's clock turns the day.
    const recentDates = [addDays(today, -1), today];
    const [{ currency }, recent, referrals] = await Promise.all([
      deps.settings.getAppSettings(),
      repo.readFigures(recentDates[0]!),
      repo.referralsSince(addDays(today, -(days - 1))),
    ]);
    const history = await historyOf(days, addDays(today, -(days - 1)), recentDates[0]!, recent.historyVersion);
    const series = {
      signups: [...history.signups, ...valuesOn(recentDates, recent.signups)],
      trials: [...history.trials, ...valuesOn(recentDates, recent.trials)],
      revenue: [...(history.revenue.get(currency) ?? history.dates.map(() => 0)), ...valuesOn(recentDates, recent.revenue.get(currency))],
      discounts: [...(history.discounts.get(currency) ?? history.dates.map(() => 0)), ...valuesOn(recentDates, recent.discounts.get(currency))],
      activeAccounts: [...history.activeAccounts, recent.activeSnapshots.get(recentDates[0]!) ?? null, recent.now.activeAccounts],
      traffic: trafficByServer(history, recentDates, recent.traffic, recent.serverNames),
    };
    return {
      days,
      dates: [...history.dates, ...recentDates],
      ...series,
      currency,
      otherCurrencies: otherCurrenciesOf(history, recentDates, recent.revenue, currency),
      referrals,
      totals: {
        users: recent.now.users,
        activeAccounts: recent.now.activeAccounts,
        revenue: sum(series.revenue),
        discounts: sum(series.discounts),
        signups: sum(series.signups),
        trials: sum(series.trials),
        trafficBytes: sum(series.traffic.map((server) => sum(server.bytes))),
      },
    };
  }

  const keptJson = deps.commitToken
    ? keptUntilCommit(
        deps.commitToken,
        async (key: `${OverviewRange}/${string}`) => new KeptJson(JSON.stringify(await getOverview(Number(key.split('/')[0]) as OverviewRange))),
      )
    : undefined;

  return {
    takeSnapshot,
    getOverview,
    /** The overview's JSON (an AdminOverview). */
    async getOverviewJson(days: OverviewRange): Promise<KeptJson> {
      return keptJson ? keptJson(`${days}/${utcDay(clock())}`) : new KeptJson(JSON.stringify(await getOverview(days)));
    },
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
