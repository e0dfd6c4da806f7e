import { useLingui } from '@lingui/react';
import { useCallback, useId, useState } from 'react';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import { adminApi } from '../../api/admin-endpoints';
import { useFormat } from '../../i18n/format';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { inputClass } from './admin-ui';
import { useAdminResource } from './useAdminResource';

const COLUMNS = [
  'adminSettings.revenue.provider',
  'adminSettings.revenue.currency',
  'adminSettings.revenue.payments',
  'adminSettings.revenue.taken',
  'adminSettings.revenue.refunded',
  'adminSettings.revenue.net',
] as const;
/** The periods the admin picks from, in days. */
const PERIODS = [7, 30, 90, 365] as const;

/** 'Revenue by provider': what each provider took per currency over a period, what was refunded of it, and the net. */
export function RevenueSection({ refreshKey, methodNames }: { refreshKey: number; methodNames: Record<PaymentMethod, string> }) {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const [days, setDays] = useState<number>(30);
  const load = useCallback((signal: AbortSignal) => adminApi.payments.revenue(days, signal), [days]);
  const { data, loadState } = useAdminResource(load, refreshKey);
  const rows = data?.rows ?? [];

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        {_('adminSettings.revenue.title')}
      </h2>
      <div className="max-w-xs">
        <label htmlFor={`${id}-days`} className="block text-sm font-medium text-slate-700">
          {_('adminSettings.revenue.period')}
        </label>
        <select id={`${id}-days`} value={days} onChange={(event) => setDays(Number(event.target.value))} className={inputClass}>
          {PERIODS.map((value) => (
            <option key={value} value={value}>
              {_('adminSettings.revenue.lastDays', { days: value })}
            </option>
          ))}
        </select>
      </div>
      {loadState === 'failed' && <AlertBox>{_('adminSettings.revenue.loadFailed')}</AlertBox>}
      <AdminTable
        caption={_('adminSettings.revenue.title')}
        columns={COLUMNS.map((column) => _(column))}
        busy={loadState === 'loading'}
        isEmpty={loadState === 'loaded' && rows.length === 0}
        emptyText={_('adminSettings.revenue.empty')}
      >
        {rows.map((row) => (
          <tr key={`${row.method}:${row.currency}`}>
            <Cell className="font-medium text-slate-900">{_(methodNames[row.method])}</Cell>
            <Cell className="uppercase">{row.currency}</Cell>
            <Cell className="tabular-nums">{format.number(row.payments)}</Cell>
            <Cell className="whitespace-nowrap tabular-nums">{format.money(row.amount, row.currency)}</Cell>
            <Cell className="whitespace-nowrap tabular-nums">{format.money(row.refunded, row.currency)}</Cell>
            <Cell className="whitespace-nowrap font-semibold tabular-nums">{format.money(row.net, row.currency)}</Cell>
          </tr>
        ))}
      </AdminTable>
      <p className="text-xs text-slate-500">{_('adminSettings.revenue.note')}</p>
    </section>
  );
}
