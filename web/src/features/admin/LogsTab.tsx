import { useLingui } from '@lingui/react';
import type { AccountLogEntry } from '../../../../shared/accounts.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { useFormat } from '../../i18n/format';
import { useConfig } from '../config/config-context';
import { describeLogDetails, logStepLabelId, type LogValue } from './log-details';
import { StatusBadge } from './StatusBadge';
import { useAdminResource } from './useAdminResource';

const LOG_LIMIT = 100;
/** The column headings, as message ids. */
const COLUMNS = ['adminSettings.column.time', 'adminSettings.column.event', 'adminSettings.column.status', 'adminSettings.column.details'] as const;

const byNewest = (a: AccountLogEntry, b: AccountLogEntry) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

async function loadLogs(signal: AbortSignal): Promise<AccountLogEntry[]> {
  return (await adminApi.listLogs(LOG_LIMIT, signal)).sort(byNewest);
}

/** A step the catalogue does not name: its words (`renewal_held` → "Renewal held"). */
const stepWords = (step: string) => {
  const words = step.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The latest 100 entries of the account and payment log, newest first: accounts created, renewed, paused
 * and removed, payments, refunds and disputes, each in words (log-details.ts).
 */
export function LogsTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { currency } = useConfig();
  const { data: entries, loadState } = useAdminResource(loadLogs, refreshKey);

  function showValue(value: LogValue) {
    switch (value.kind) {
      case 'money':
        // The log keeps minor units only: the store's currency, unless the entry names another.
        return format.money(value.minor, value.currency ?? currency);
      case 'date':
        return <time dateTime={value.iso}>{format.dateTime(value.iso)}</time>;
      case 'yesNo':
        return value.value ? _('admin.common.yes') : _('admin.common.no');
      case 'id':
        return (
          <span className="font-mono" title={value.id}>
            {value.short}
          </span>
        );
      case 'text':
        return value.text;
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">{_('adminSettings.logs.intro', { count: LOG_LIMIT })}</p>
      {loadState === 'failed' && <AlertBox>{_('adminSettings.logs.loadFailed')}</AlertBox>}
      {loadState === 'loading' && !entries ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('adminSettings.logs.caption')}
          columns={COLUMNS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={entries?.length === 0}
          emptyText={_('adminSettings.logs.empty')}
        >
          {entries?.map((entry) => (
            <tr key={entry.id} className="align-top">
              <Cell className="whitespace-nowrap text-slate-700">
                <time dateTime={entry.createdAt}>{format.dateTime(entry.createdAt)}</time>
              </Cell>
              <Cell className="font-medium whitespace-nowrap text-slate-900">
                <span title={entry.step}>{logStepLabelId(entry.step) ? _(logStepLabelId(entry.step)!) : stepWords(entry.step)}</span>
              </Cell>
              <Cell>
                <StatusBadge tone={entry.status === 'success' ? 'green' : 'red'}>
                  {entry.status === 'success' ? _('adminSettings.logs.success') : _('adminSettings.logs.failure')}
                </StatusBadge>
              </Cell>
              <Cell className="min-w-64 text-xs wrap-anywhere text-slate-700">
                <ul className="space-y-0.5">
                  {describeLogDetails(entry.details).map((field) => (
                    <li key={field.key}>
                      {field.key && <span className="text-slate-500">{field.labelId ? _(field.labelId) : field.key}: </span>}
                      {showValue(field.value)}
                    </li>
                  ))}
                </ul>
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
