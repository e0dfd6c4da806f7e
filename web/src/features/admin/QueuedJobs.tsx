import { useLingui } from '@lingui/react';
import type { SystemStatus } from '../../../../shared/accounts.js';
import { useFormat } from '../../i18n/format';
import { AdminTable, Cell } from './AdminTable';
import { StatusBadge } from './StatusBadge';

/** Due longer than this, a job is overdue: the worker is behind or stopped (it looks for due jobs every few seconds). */
export const OVERDUE_AFTER_MINUTES = 5;

const COLUMNS = [
  'adminSettings.column.type',
  'adminSettings.column.waiting',
  'adminSettings.column.due',
  'adminSettings.column.dueSince',
  'adminSettings.column.status',
] as const;

type QueuedOfType = SystemStatus['jobs']['queued'][number];

function stateOf(row: QueuedOfType, now: number): 'scheduled' | 'due' | 'overdue' {
  if (row.due === 0 || !row.oldestDueAt) return 'scheduled';
  return now - Date.parse(row.oldestDueAt) > OVERDUE_AFTER_MINUTES * 60_000 ? 'overdue' : 'due';
}

const TONES = { scheduled: 'gray', due: 'indigo', overdue: 'red' } as const;
const STATE_LABELS = {
  scheduled: 'adminSettings.system.queueState.scheduled',
  due: 'adminSettings.system.queueState.due',
  overdue: 'adminSettings.system.queueState.overdue',
} as const;

/** What the job queue holds, by job type: waiting for their time (normal), due now, or overdue; and a line on what is normal. */
export function QueuedJobs({ queued }: { queued: SystemStatus['jobs']['queued'] }) {
  const { _ } = useLingui();
  const format = useFormat();
  const now = Date.now();
  return (
    <>
      <p className="text-sm text-slate-600">{_('adminSettings.system.jobsNormal', { minutes: OVERDUE_AFTER_MINUTES })}</p>
      <h3 className="pt-2 text-sm font-semibold text-slate-900">{_('adminSettings.system.queuedTitle')}</h3>
      <AdminTable
        caption={_('adminSettings.system.queuedTitle')}
        columns={COLUMNS.map((column) => _(column))}
        isEmpty={queued.length === 0}
        emptyText={_('adminSettings.system.queuedEmpty')}
      >
        {queued.map((row) => {
          const state = stateOf(row, now);
          return (
            <tr key={row.type}>
              <Cell className="font-mono text-slate-900">{row.type}</Cell>
              <Cell className="tabular-nums">{format.number(row.waiting)}</Cell>
              <Cell className="tabular-nums">{format.number(row.due)}</Cell>
              <Cell className="whitespace-nowrap">{row.oldestDueAt ? format.dateTime(row.oldestDueAt) : '—'}</Cell>
              <Cell>
                <StatusBadge tone={TONES[state]}>{_(STATE_LABELS[state])}</StatusBadge>
              </Cell>
            </tr>
          );
        })}
      </AdminTable>
    </>
  );
}
