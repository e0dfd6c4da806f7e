import { useLingui } from '@lingui/react';
import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useOverviewFormat, type OverviewFormat } from './overview-format';

export interface ChartSeries {
  label: string;
  /** One per day of `dates`; null = not recorded that day (a gap). */
  values: Array<number | null>;
  color: string;
}

export interface OverviewChartProps {
  title: string;
  /** A sentence under the title: what the chart adds up to. */
  summary: string;
  /** The UTC days, `YYYY-MM-DD`, oldest first. */
  dates: string[];
  series: ChartSeries[];
  /** A value in full (legend, the table for screen readers). */
  format: (value: number) => string;
  /** A value on the y axis (shorter). */
  formatAxis?: (value: number) => string;
  /** Bars for one series of daily amounts; lines for levels or several series. */
  kind: 'bars' | 'line';
  /** Steps for the y axis (default: 1, 2, 5, 10, …). */
  ySteps?: number[];
}

const HEIGHT = 220;
/** The room a day's label needs on the x axis, in CSS pixels. */
const DAY_LABEL_WIDTH = 56;
/** Round steps for the y axis: whole counts, whole cents. */
const DECIMAL_STEPS = Array.from({ length: 16 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();
/** Round steps for bytes: 1, 2, 5, 10, 20, 50, 100, 200, 500 of each unit (KB, MB, GB, …). */
export const BYTE_STEPS = Array.from({ length: 6 }, (_, unit) => [1, 2, 5, 10, 20, 50, 100, 200, 500].map((step) => step * 1024 ** unit)).flat();

const hasData = (series: ChartSeries[]) => series.some((s) => s.values.some((value) => value !== null && value !== 0));

/** Every k-th day, counted back from today (always labelled), so labels never overlap. */
function daySplits(plot: uPlot, days: number): number[] {
  const width = plot.width - 70; // less the y axis, about
  const every = Math.max(1, Math.ceil((days * DAY_LABEL_WIDTH) / Math.max(width, 1)));
  return Array.from({ length: days }, (_, i) => i).filter((i) => (days - 1 - i) % every === 0);
}

/** What the chart's canvas writes in the current language: days, and the legend's words. */
interface ChartText {
  shortDay: OverviewFormat['shortDay'];
  longDay: OverviewFormat['longDay'];
  day: string;
  notRecorded: string;
}

function chartOptions(props: OverviewChartProps, width: number, text: ChartText): uPlot.Options {
  const { dates, series, format, kind } = props;
  const formatAxis = props.formatAxis ?? format;
  const days = dates.length;
  return {
    width,
    height: HEIGHT,
    legend: { show: series.length > 1 },
    cursor: { drag: { x: false, y: false }, points: { size: 7 } },
    scales: {
      x: { time: false, range: () => [-0.5, days - 0.5] },
      y: {
        range: (_plot, _min, max) => {
          const top = max !== null && max > 0 ? (uPlot.rangeNum(0, max, 0.1, true)[1] ?? max) : 1;
          return [0, top];
        },
      },
    },
    axes: [
      {
        splits: (plot) => daySplits(plot, days),
        values: (_plot, splits) => splits.map((i) => (dates[i] ? text.shortDay(Date.parse(`${dates[i]}T00:00:00Z`) / 1000) : '')),
        grid: { show: false },
        size: 36,
        stroke: '#475569',
      },
      {
        incrs: props.ySteps ?? DECIMAL_STEPS,
        values: (_plot, splits) => splits.map((value) => formatAxis(value)),
        size: (_plot, values) => (values ? Math.max(...values.map((value) => value.length)) * 7 + 16 : 40),
        grid: { stroke: '#e2e8f0', width: 1 },
        stroke: '#475569',
      },
    ],
    series: [
      { label: text.day, value: (_plot, i) => (i === null || !dates[i] ? '—' : text.longDay(dates[i])) },
      ...series.map((s): uPlot.Series => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        fill: kind === 'bars' ? `${s.color}cc` : undefined,
        paths: kind === 'bars' ? uPlot.paths.bars!({ size: [0.7, 40] }) : undefined,
        points: { show: kind === 'line' && days <= 31, size: 5, fill: s.color },
        spanGaps: false,
        value: (_plot, value, _series, day) => (day === null ? '—' : value === null ? text.notRecorded : format(value)),
      })),
    ],
  };
}

/**
 * One chart of the overview: a <figure> whose uPlot canvas follows its container's width (a
 * ResizeObserver), captioned, with the same numbers in a table for screen readers.
 */
export function OverviewChart(props: OverviewChartProps) {
  const { title, summary, dates, series, format } = props;
  const { _ } = useLingui();
  const { shortDay, longDay } = useOverviewFormat();
  const dayText = _('admin.chart.day');
  const notRecorded = _('admin.chart.notRecorded');
  const containerRef = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const empty = !hasData(series);

  useEffect(() => {
    const container = containerRef.current;
    // Nothing to draw: no axes (a 0 B to 1 B scale says nothing), only the empty state.
    if (!container || empty) return;
    const data: uPlot.AlignedData = [dates.map((_, i) => i), ...series.map((s) => s.values)];
    const plot = new uPlot(chartOptions(props, container.clientWidth, { shortDay, longDay, day: dayText, notRecorded }), data, container);
    const observer = new ResizeObserver(() => {
      if (container.clientWidth > 0 && container.clientWidth !== plot.width) plot.setSize({ width: container.clientWidth, height: HEIGHT });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
    // Rebuilt when its data, look or language changes (`props` itself is new on every render).
  }, [empty, dates, series, format, props.formatAxis, props.kind, props.ySteps, shortDay, longDay, dayText, notRecorded]);

  return (
    <figure aria-labelledby={captionId} className="relative min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <figcaption id={captionId}>
        <span className="block text-sm font-semibold text-slate-900">{title}</span>
        <span className="mt-0.5 block text-sm text-slate-600">{empty ? _('admin.chart.noData') : summary}</span>
      </figcaption>
      <div className="mt-3">
        {empty ? (
          <p aria-hidden="true" style={{ height: HEIGHT }} className="flex items-center justify-center rounded-lg bg-slate-50 text-sm text-slate-500">
            {_('admin.chart.noData')}
          </p>
        ) : (
          <div ref={containerRef} aria-hidden="true" className="w-full min-w-0 overflow-hidden" />
        )}
      </div>
      {/* A table ignores overflow: the wrapper is what keeps it out of sight (and out of the page's height). */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{_('admin.chart.dayUtc')}</th>
              {series.map((s, column) => (
                <th key={column} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dates.map((day, i) => (
              <tr key={day}>
                <th scope="row">{longDay(day)}</th>
                {series.map((s, column) => {
                  const value = s.values[i];
                  return <td key={column}>{value === null || value === undefined ? notRecorded : format(value)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
