import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { BillingStatusBadge } from '../billing/BillingStatusBadge';
import { formatAmount } from '../billing/billing-format';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { formatDateTime } from './admin-format';
import { ActiveBadge } from './RowActions';
import { StatusBadge } from './StatusBadge';
import { RecurringSummary, SystemSummary } from './SystemSummary';
import { useAdminResource } from './useAdminResource';
import { TabSection } from './TabSection';

const LOAD_FAILED = 'Failed to fetch system status';
const PANEL_COLUMNS = ['Name', 'Kind', 'Status', 'Reachable'] as const;
const FAILED_JOB_COLUMNS = ['Type', 'Attempts', 'Last error', 'Time'] as const;
const PAYMENT_COLUMNS = ['Customer', 'Plan', 'Amount', 'Status', 'Time'] as const;

/** Health of the database, mail, panels, payments (and the recurring ones) and job queue, plus the running version. */
export function SystemTab({ refreshKey }: { refreshKey: number }) {
  const { data: status, loadState } = useAdminResource(adminApi.getSystem, refreshKey);

  if (loadState === 'failed' && !status) return <AlertBox>{LOAD_FAILED}</AlertBox>;
  if (!status) return <Loading />;

  const jobCounts = Object.entries(status.jobs.counts);
  return (
    <div className="space-y-8" aria-busy={loadState === 'loading'}>
      {loadState === 'failed' && <AlertBox>{LOAD_FAILED}</AlertBox>}
      <SystemSummary status={status} />

      <TabSection title="Panels">
        <AdminTable caption="Panels" columns={PANEL_COLUMNS} isEmpty={status.panels.length === 0} emptyText="No master servers configured.">
          {status.panels.map((panel) => (
            <tr key={panel.id}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">{panel.name}</Cell>
              <Cell className="capitalize">{panel.kind}</Cell>
              <Cell>
                <ActiveBadge active={panel.status === 'active'} />
              </Cell>
              <Cell>
                {panel.reachable ? (
                  <StatusBadge tone="green">Reachable</StatusBadge>
                ) : (
                  <span className="text-red-700">
                    <StatusBadge tone="red">Unreachable</StatusBadge> {panel.error}
                  </span>
                )}
              </Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>

      <TabSection title="Recurring subscriptions">
        <RecurringSummary metrics={status.payments.recurring} />
      </TabSection>

      <TabSection title="Payments to look at">
        <p className="text-sm text-slate-600">
          Paid amounts that differ from the order (nothing was delivered) and open disputes (the account is paused). Refund or settle them under Payments.
        </p>
        <AdminTable
          caption="Payments to look at"
          columns={PAYMENT_COLUMNS}
          isEmpty={status.payments.needsReview.length + status.payments.disputed.length === 0}
          emptyText="Nothing to look at."
        >
          {[...status.payments.needsReview, ...status.payments.disputed].map((payment) => (
            <tr key={payment.id} className="align-top">
              <Cell className="font-medium whitespace-nowrap text-slate-900">{payment.userEmail}</Cell>
              <Cell>{payment.planName}</Cell>
              <Cell className="whitespace-nowrap tabular-nums">{formatAmount(payment.amount, payment.currency)}</Cell>
              <Cell>
                <BillingStatusBadge status={payment.status} />
                {payment.note && <span className="mt-1 block text-xs text-slate-500">{payment.note}</span>}
              </Cell>
              <Cell className="whitespace-nowrap">{formatDateTime(payment.createdAt)}</Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>

      <TabSection title="Job queue">
        {jobCounts.length === 0 ? (
          <p className="text-sm text-slate-600">No jobs.</p>
        ) : (
          <dl className="flex flex-wrap gap-3">
            {jobCounts.map(([state, count]) => (
              <div key={state} className="rounded-lg bg-white px-3 py-2 text-sm shadow-sm ring-1 ring-slate-200">
                <dt className="inline text-slate-600 capitalize">{state}: </dt>
                <dd className="inline font-semibold text-slate-900">{count}</dd>
              </div>
            ))}
          </dl>
        )}
        <h3 className="pt-2 text-sm font-semibold text-slate-900">Failed jobs</h3>
        <AdminTable caption="Failed jobs" columns={FAILED_JOB_COLUMNS} isEmpty={status.jobs.failed.length === 0} emptyText="No failed jobs.">
          {status.jobs.failed.map((job) => (
            <tr key={job.id} className="align-top">
              <Cell className="font-medium whitespace-nowrap text-slate-900">{job.type}</Cell>
              <Cell>{job.attempts}</Cell>
              <Cell className="min-w-64 wrap-anywhere text-red-800">{job.lastError ?? '—'}</Cell>
              <Cell className="whitespace-nowrap">{formatDateTime(job.updatedAt)}</Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>
    </div>
  );
}
