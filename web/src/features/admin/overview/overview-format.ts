import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
import { useFormat, type Formatters } from '../../../i18n/format';
import type { Translate } from '../plan-form';

/** A size in each unit, as the admin catalogue writes it ('{value} KB'). */
const UNIT_IDS = ['admin.unit.b', 'admin.unit.kb', 'admin.unit.mb', 'admin.unit.gb', 'admin.unit.tb', 'admin.unit.pb'] as const;

/** `YYYY-MM-DD` (a UTC day) as seconds since the epoch at its midnight: uPlot's x values. */
export const dayToSeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * The overview's numbers, money, traffic and days in the current language: `format` (useFormat) gives
 * the locale, `_` the unit words.
 */
export function createOverviewFormat(format: Formatters, _: Translate) {
  const { locale } = format;
  const oneDecimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const dayLabel = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const longDayLabel = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });

  return {
    /** A whole count with the locale's separators: 1234 → '1,234'. */
    count: (count: number): string => format.number(Math.round(count)),
    /** Minor units of the shop's currency as money: 129900 → '$1,299.00'. */
    money: (minor: number, currency: string): string => format.money(minor, currency),
    /** Amounts one after another with the language's separator ('$12.00, ¥1,500'). */
    list: (items: readonly string[]): string => format.list(items),
    /** Money on a chart's axis: no decimals when whole ('$40', '$12.50', '¥1,500'). */
    moneyAxis: (minor: number, currency: string): string => format.moneyShort(minor, currency),
    /** Bytes in the largest unit that keeps a number of at least 1 (1024-based): 1536 → '1.5 KB'. */
    traffic(bytes: number): string {
      let value = Math.max(0, bytes);
      let unit = 0;
      while (value >= 1024 && unit < UNIT_IDS.length - 1) {
        value /= 1024;
        unit += 1;
      }
      const digits = value >= 100 || unit === 0 ? 0 : 1;
      const rounded = Number(value.toFixed(digits));
      return _(UNIT_IDS[unit]!, { value: digits === 0 ? format.number(rounded) : oneDecimal.format(rounded) });
    },
    /** A UTC day for an axis or tooltip ('Mar 15'), from uPlot's seconds. */
    shortDay: (seconds: number): string => dayLabel.format(new Date(seconds * 1000)),
    /** A UTC day (`YYYY-MM-DD`) for the tables read by screen readers: 'Mar 15, 2026'. */
    longDay: (day: string): string => longDayLabel.format(new Date(`${day}T00:00:00Z`)),
  };
}

export type OverviewFormat = ReturnType<typeof createOverviewFormat>;

/** The overview's formatters in the current language (the same object until the language or its messages change). */
export function useOverviewFormat(): OverviewFormat {
  const format = useFormat();
  const { _ } = useLingui();
  return useMemo(() => createOverviewFormat(format, _), [format, _]);
}
