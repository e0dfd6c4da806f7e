import type { AccountLogEntry } from '../../../../shared/accounts.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { formatDateTime } from './admin-format';
import { formatLogDetails } from './log-details';
import { StatusBadge } from './StatusBadge';
import { useAdminResource } from './useAdminResource';

const LOG_LIMIT = 100;
const LOAD_FAILED = 'Failed to fetch logs';
const COLUMNS = ['Time', 'Step', 'Status', 'Details'] as const;

const byNewest = (a: AccountLogEntry, b: AccountLogEntry) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

async function loadLogs(signal: AbortSignal): Promise<AccountLogEntry[]> {
  return (await adminApi.listLogs(LOG_LIMIT, signal)).sort(byNewest);
}

/** The latest 100 account-provisioning log entries, newest first. */
export function LogsTab({ refreshKey }: { refreshKey: number }) {
  const { data: entries, loadState } = useAdminResource(loadLogs, refreshKey);

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">The latest {LOG_LIMIT} account-creation steps, newest first.</p>
      {loadState === 'failed' && <AlertBox>{LOAD_FAILED}</AlertBox>}
      {loadState === 'loading' && !entries ? (
        <Loading />
      ) : (
        <AdminTable caption="Account logs" columns={COLUMNS} busy={loadState === 'loading'} isEmpty={entries?.length === 0} emptyText="No log entries yet.">
          {entries?.map((entry) => (
            <tr key={entry.id} className="align-top">
              <Cell className="whitespace-nowrap text-slate-700">
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </Cell>
              <Cell className="font-medium whitespace-nowrap text-slate-900">{entry.step}</Cell>
              <Cell>
                <StatusBadge tone={entry.status === 'success' ? 'green' : 'red'}>
                  {entry.status === 'success' ? 'Success' : 'Failure'}
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
