import { useLingui } from '@lingui/react';
import { useCallback, useMemo, useState } from 'react';
import { OVERVIEW_RANGES, type AdminOverview, type OverviewRange } from '../../../../../shared/overview.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { AlertBox } from '../AlertBox';
import { cardClass } from '../admin-ui';
import { useAdminResource } from '../useAdminResource';
import { BYTE_STEPS, OverviewChart, type ChartSeries, type OverviewChartProps } from './OverviewChart';
import { useOverviewFormat } from './overview-format';
import { ServersHealth } from './ServersHealth';
import { TabSection } from '../TabSection';

const LOAD_FAILED = 'admin.overview.loadFailed';
/** Distinct at a glance and on white (one per server, then round again). */
const SERVER_COLORS = ['#4f46e5', '#0891b2', '#d97706', '#db2777', '#059669', '#7c3aed', '#dc2626', '#475569'];
const COLORS = { signups: '#4f46e5', active: '#059669', trials: '#d97706', revenue: '#0891b2' } as const;

function RangePicker({ days, onChange }: { days: OverviewRange; onChange: (days: OverviewRange) => void }) {
  const { _ } = useLingui();
  return (
    <div role="group" aria-label={_('admin.overview.range')} className="inline-flex rounded-lg bg-white p-1 shadow-sm ring-1 ring-slate-200">
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
          {_('admin.overview.rangeDays', { days: range })}
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

/** The charts of one overview; their series keep their identity until the data or the language changes (no redraw on other renders). */
function useCharts(overview: AdminOverview | null): Array<OverviewChartProps & { wide?: boolean }> {
  const { _ } = useLingui();
  const format = useOverviewFormat();
  return useMemo(() => {
    if (!overview) return [];
    const { dates, days, currency } = overview;
    const { count, traffic } = format;
    const money = (cents: number) => format.money(cents, currency);
    const moneyAxis = (cents: number) => format.moneyAxis(cents, currency);
    const single = (label: string, values: Array<number | null>, color: string): ChartSeries[] => [{ label, values, color }];
    const activeToday = overview.activeAccounts.at(-1) ?? 0;
    return [
      {
        title: _('admin.overview.signupsChart'),
        summary: _('admin.overview.signupsSummary', { count: Math.round(overview.totals.signups), days }),
        dates,
        kind: 'bars',
        format: count,
        series: single(_('admin.overview.signups'), overview.signups, COLORS.signups),
      },
      {
        title: _('admin.overview.activeAccounts'),
        summary: _('admin.overview.activeSummary', { count: count(activeToday) }),
        dates,
        kind: 'line',
        format: count,
        series: single(_('admin.overview.activeAccounts'), overview.activeAccounts, COLORS.active),
      },
      {
        title: _('admin.overview.trialsChart'),
        summary: _('admin.overview.trialsSummary', { count: Math.round(overview.totals.trials), days }),
        dates,
        kind: 'bars',
        format: count,
        series: single(_('admin.overview.trials'), overview.trials, COLORS.trials),
      },
      {
        title: _('admin.overview.revenueChart'),
        summary: _('admin.overview.revenueSummary', { amount: money(overview.totals.revenue), days }),
        dates,
        kind: 'bars',
        format: money,
        formatAxis: moneyAxis,
        series: single(_('admin.overview.revenue'), overview.revenue, COLORS.revenue),
      },
      {
        title: _('admin.overview.trafficChart'),
        wide: true,
        summary:
          overview.traffic.length === 0
            ? _('admin.overview.noServers')
            : _('admin.overview.trafficSummary', { amount: traffic(overview.totals.trafficBytes), days }),
        dates,
        kind: 'line',
        format: traffic,
        ySteps: BYTE_STEPS,
        series: overview.traffic.map((server, i) => ({ label: server.name, values: server.bytes, color: SERVER_COLORS[i % SERVER_COLORS.length]! })),
      },
    ];
  }, [overview, format, _]);
}

/** The admin's first tab: headline numbers, daily charts for the chosen range, and the servers' health. */
export function OverviewTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useOverviewFormat();
  const [days, setDays] = useState<OverviewRange>(7);
  const load = useCallback((signal: AbortSignal) => adminApi.getOverview(days, signal), [days]);
  const { data: overview, loadState } = useAdminResource(load, refreshKey);
  const charts = useCharts(overview);

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">{_('admin.tab.overview')}</h2>
        <RangePicker days={days} onChange={setDays} />
      </div>
      {loadState === 'failed' && <AlertBox>{_(LOAD_FAILED)}</AlertBox>}
      {!overview ? (
        loadState === 'loading' && <Loading />
      ) : (
        <div className="space-y-6" aria-busy={loadState === 'loading'}>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Headline label={_('admin.overview.totalUsers')} value={format.count(overview.totals.users)} note={_('admin.overview.allTime')} />
            <Headline label={_('admin.overview.activeAccounts')} value={format.count(overview.totals.activeAccounts)} note={_('admin.overview.now')} />
            <Headline
              label={_('admin.overview.revenueIn', { currency: overview.currency.toUpperCase() })}
              value={format.money(overview.totals.revenue, overview.currency)}
              note={_('admin.overview.lastDaysLessRefunds', { days: overview.days })}
            />
            <Headline
              label={_('admin.overview.signups')}
              value={format.count(overview.totals.signups)}
              note={_('admin.overview.lastDays', { days: overview.days })}
            />
          </dl>
          {overview.totals.discounts > 0 && (
            <p className="text-sm text-slate-600" data-testid="overview-discounts">
              {_('admin.overview.discounts', {
                discount: format.money(overview.totals.discounts, overview.currency),
                before: format.money(overview.totals.revenue + overview.totals.discounts, overview.currency),
                days: overview.days,
              })}
            </p>
          )}
          {(overview.referrals.signedUp > 0 || overview.referrals.paid > 0) && (
            <p className="text-sm text-slate-600" data-testid="overview-referrals">
              {_('admin.overview.referrals', { signedUp: overview.referrals.signedUp, paid: overview.referrals.paid, days: overview.days })}
            </p>
          )}
          {overview.otherCurrencies.length > 0 && (
            <p className="text-sm text-slate-600">
              {_('admin.overview.otherCurrencies', {
                amounts: format.list(overview.otherCurrencies.map((other) => format.money(other.revenue, other.currency))),
              })}
            </p>
          )}
          <p className="text-xs text-slate-500">{_('admin.overview.utcNote')}</p>
          <div className="grid gap-4 lg:grid-cols-2">
            {charts.map(({ wide, ...chart }) => (
              <div key={chart.title} className={`min-w-0 ${wide ? 'lg:col-span-2' : ''}`}>
                <OverviewChart {...chart} />
              </div>
            ))}
          </div>
        </div>
      )}
      <TabSection title={_('admin.overview.serversHealth')}>
        <ServersHealth refreshKey={refreshKey} />
      </TabSection>
    </div>
  );
}
