import { useLingui } from '@lingui/react';
import type { AccountLogEntry } from '../../../../shared/accounts.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { useFormat } from '../../i18n/format';
import { formatLogDetails } from './log-details';
import { StatusBadge } from './StatusBadge';
import { useAdminResource } from './useAdminResource';

const LOG_LIMIT = 100;
/** The column headings, as message ids. */
const COLUMNS = ['adminSettings.column.time', 'adminSettings.column.step', 'adminSettings.column.status', 'adminSettings.column.details'] as const;

const byNewest = (a: AccountLogEntry, b: AccountLogEntry) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

async function loadLogs(signal: AbortSignal): Promise<AccountLogEntry[]> {
  return (await adminApi.listLogs(LOG_LIMIT, signal)).sort(byNewest);
}

/** The latest 100 account-provisioning log entries, newest first. */
export function LogsTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { data: entries, loadState } = useAdminResource(loadLogs, refreshKey);

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
              <Cell className="font-medium whitespace-nowrap text-slate-900">{entry.step}</Cell>
              <Cell>
                <StatusBadge tone={entry.status === 'success' ? 'green' : 'red'}>
                  {entry.status === 'success' ? _('adminSettings.logs.success') : _('adminSettings.logs.failure')}
                </StatusBadge>
              </Cell>
              <Cell className="min-w-64 font-mono text-xs wrap-anywhere text-slate-700">{formatLogDetails(entry.details)}</Cell>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
