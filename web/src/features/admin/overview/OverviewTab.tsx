import { useCallback, useMemo, useState } from 'react';
import { OVERVIEW_RANGES, type AdminOverview, type OverviewRange } from '../../../../../shared/overview.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { AlertBox } from '../AlertBox';
import { cardClass } from '../admin-ui';
import { useAdminResource } from '../useAdminResource';
import { BYTE_STEPS, OverviewChart, type ChartSeries, type OverviewChartProps } from './OverviewChart';
import { formatCount, formatMoney, formatTraffic } from './overview-format';
import { ServersHealth } from './ServersHealth';
import { TabSection } from '../TabSection';

const LOAD_FAILED = 'Failed to fetch the overview';
/** Distinct at a glance and on white (one per server, then round again). */
const SERVER_COLORS = ['#4f46e5', '#0891b2', '#d97706', '#db2777', '#059669', '#7c3aed', '#dc2626', '#475569'];
const COLORS = { signups: '#4f46e5', active: '#059669', trials: '#d97706', revenue: '#0891b2' } as const;

function RangePicker({ days, onChange }: { days: OverviewRange; onChange: (days: OverviewRange) => void }) {
  return (
    <div role="group" aria-label="Range" className="inline-flex rounded-lg bg-white p-1 shadow-sm ring-1 ring-slate-200">
      {OVERVIEW_RANGES.map((range) => (
        <button
          key={range}
          type="button"
          aria-pressed={range === days}
          onClick={() => onChange(range)}
          className={`rounded-md px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
            range === days ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-50'
          }`}
        >
          {range} days
        </button>
      ))}
    </div>
  );
}

function Headline({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className={`${cardClass} min-w-0 p-4`}>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-2xl font-bold break-words text-slate-900 tabular-nums">{value}</dd>
      <dd className="text-xs text-slate-500">{note}</dd>
    </div>
  );
}

/** The charts of one overview; their series keep their identity until the data changes (no redraw on other renders). */
function useCharts(overview: AdminOverview | null): Array<OverviewChartProps & { wide?: boolean }> {
  return useMemo(() => {
    if (!overview) return [];
    const { dates, days, currency } = overview;
    const range = `in the last ${days} days`;
    const money = (cents: number) => formatMoney(cents, currency);
    const moneyAxis = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: cents % 100 === 0 ? 0 : 2 })}`;
    const single = (label: string, values: Array<number | null>, color: string): ChartSeries[] => [{ label, values, color }];
    const activeToday = overview.activeAccounts.at(-1) ?? 0;
    return [
      { title: 'Signups per day', summary: `${formatCount(overview.totals.signups)} new users ${range}`, dates, kind: 'bars', format: formatCount, series: single('Signups', overview.signups, COLORS.signups) },
      {
        title: 'Active accounts', summary: `${formatCount(activeToday)} active now; earlier days as of each day's last hourly count`, dates, kind: 'line', format: formatCount,
        series: single('Active accounts', overview.activeAccounts, COLORS.active),
      },
      { title: 'Trials claimed per day', summary: `${formatCount(overview.totals.trials)} trials ${range}`, dates, kind: 'bars', format: formatCount, series: single('Trials', overview.trials, COLORS.trials) },
      {
        title: 'Revenue per day', summary: `${money(overview.totals.revenue)} ${range}, less refunds`, dates, kind: 'bars', format: money, formatAxis: moneyAxis,
        series: single('Revenue', overview.revenue, COLORS.revenue),
      },
      {
        title: 'Traffic per server per day', wide: true,
        summary: overview.traffic.length === 0 ? 'No servers yet' : `${formatTraffic(overview.totals.trafficBytes)} used ${range}`,
        dates, kind: 'line', format: formatTraffic, ySteps: BYTE_STEPS,
        series: overview.traffic.map((server, i) => ({ label: server.name, values: server.bytes, color: SERVER_COLORS[i % SERVER_COLORS.length]! })),
      },
    ];
  }, [overview]);
}

/** The admin's first tab: headline numbers, daily charts for the chosen range, and the servers' health. */
export function OverviewTab({ refreshKey }: { refreshKey: number }) {
  const [days, setDays] = useState<OverviewRange>(7);
  const load = useCallback((signal: AbortSignal) => adminApi.getOverview(days, signal), [days]);
  const { data: overview, loadState } = useAdminResource(load, refreshKey);
  const charts = useCharts(overview);

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Overview</h2>
        <RangePicker days={days} onChange={setDays} />
      </div>
      {loadState === 'failed' && <AlertBox>{LOAD_FAILED}</AlertBox>}
      {!overview ? (
        loadState === 'loading' && <Loading />
      ) : (
        <div className="space-y-6" aria-busy={loadState === 'loading'}>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Headline label="Total users" value={formatCount(overview.totals.users)} note="All time" />
            <Headline label="Active accounts" value={formatCount(overview.totals.activeAccounts)} note="Now" />
            <Headline label="Revenue" value={formatMoney(overview.totals.revenue, overview.currency)} note={`Last ${overview.days} days, less refunds`} />
            <Headline label="Signups" value={formatCount(overview.totals.signups)} note={`Last ${overview.days} days`} />
          </dl>
          <p className="text-xs text-slate-500">Days are UTC dates; today is so far.</p>
          <div className="grid gap-4 lg:grid-cols-2">
            {charts.map(({ wide, ...chart }) => (
              <div key={chart.title} className={`min-w-0 ${wide ? 'lg:col-span-2' : ''}`}>
                <OverviewChart {...chart} />
              </div>
            ))}
          </div>
        </div>
      )}
      <TabSection title="Servers' health">
        <ServersHealth refreshKey={refreshKey} />
      </TabSection>
    </div>
  );
}
