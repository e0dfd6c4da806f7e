import { useLingui } from '@lingui/react';
import type { ProviderMethod } from '../../../../shared/billing-schemas.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { BillingStatusBadge } from '../billing/BillingStatusBadge';
import { AdminTable, Cell } from './AdminTable';
import { QueuedJobs } from './QueuedJobs';
import { AlertBox } from './AlertBox';
import { BackupsAlert } from './BackupsCard';
import { ActiveBadge } from './RowActions';
import { StatusBadge } from './StatusBadge';
import { RecurringSummary, SystemSummary } from './SystemSummary';
import { useAdminResource } from './useAdminResource';
import { TabSection } from './TabSection';
import { UnreadableWebhooksAlert } from './UnreadableWebhooksAlert';
import { useFormat } from '../../i18n/format';
import { customerName } from '../../components/header/customer-name';

/** The tables' column headings, as message ids. */
/** A panel's API token this close to its end is shown (the admins are e-mailed then, and 3 days before). */
const TOKEN_WARNING_DAYS = 14;

const PANEL_COLUMNS = ['adminSettings.column.name', 'adminSettings.column.kind', 'adminSettings.column.status', 'adminSettings.column.reachable'] as const;
const FAILED_JOB_COLUMNS = [
  'adminSettings.column.type',
  'adminSettings.column.attempts',
  'adminSettings.column.lastError',
  'adminSettings.column.time',
] as const;
const PAYMENT_COLUMNS = [
  'adminSettings.column.customer',
  'adminSettings.column.plan',
  'adminSettings.column.amount',
  'adminSettings.column.status',
  'adminSettings.column.time',
] as const;
const PROVIDER_COLUMNS = [
  'adminSettings.column.name',
  'adminSettings.column.status',
  'adminSettings.column.reachable',
  'adminSettings.system.lastPayment',
] as const;
/** Each provider by the method it takes, as the admin reads it. */
const PROVIDER_NAMES: Record<ProviderMethod, string> = {
  card: 'adminSettings.system.providerStripe',
  crypto: 'adminSettings.system.providerBtcpay',
  yookassa: 'adminSettings.system.providerYookassa',
  cryptopay: 'adminSettings.system.providerCryptopay',
  stars: 'adminSettings.system.providerStars',
};
/** The job states the queue reports (jobs.repo JOB_STATUSES); another one shows as it comes. */
const JOB_STATES = new Set(['queued', 'running', 'done', 'failed']);

/** Health of the database, mail, panels, payments (and the recurring ones) and job queue, plus the running version. */
export function SystemTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { data: status, loadState } = useAdminResource(adminApi.getSystem, refreshKey);
  const loadFailed = _('adminSettings.system.loadFailed');

  if (loadState === 'failed' && !status) return <AlertBox>{loadFailed}</AlertBox>;
  if (!status) return <Loading />;

  const jobCounts = Object.entries(status.jobs.counts);
  return (
    <div className="space-y-8" aria-busy={loadState === 'loading'}>
      {loadState === 'failed' && <AlertBox>{loadFailed}</AlertBox>}
      <UnreadableWebhooksAlert alerts={status.payments.unreadableWebhooks} />
      <BackupsAlert backups={status.backups} />
      <SystemSummary status={status} />

      <TabSection title={_('adminSettings.system.panels')}>
        <AdminTable
          caption={_('adminSettings.system.panels')}
          columns={PANEL_COLUMNS.map((column) => _(column))}
          isEmpty={status.panels.length === 0}
          emptyText={_('adminSettings.system.noPanels')}
        >
          {status.panels.map((panel) => (
            <tr key={panel.id}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">
                <bdi>{panel.name}</bdi>
              </Cell>
              <Cell className="capitalize">{panel.kind}</Cell>
              <Cell>
                <ActiveBadge active={panel.status === 'active'} />
              </Cell>
              <Cell>
                {panel.reachable ? (
                  <StatusBadge tone="green">{_('adminSettings.system.reachable')}</StatusBadge>
                ) : (
                  <span className="text-red-700">
                    <StatusBadge tone="red">{_('adminSettings.system.unreachable')}</StatusBadge> {panel.error}
                  </span>
                )}
                {panel.tokenDaysLeft !== null && panel.tokenDaysLeft <= TOKEN_WARNING_DAYS && (
                  <p className="mt-1 text-sm text-amber-800" role="status">
                    {panel.tokenDaysLeft > 0 ? _('adminSettings.system.tokenEnds', { days: panel.tokenDaysLeft }) : _('adminSettings.system.tokenEnded')}
                  </p>
                )}
              </Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>

      <TabSection title={_('adminSettings.system.providers')}>
        <AdminTable
          caption={_('adminSettings.system.providers')}
          columns={PROVIDER_COLUMNS.map((column) => _(column))}
          isEmpty={status.payments.providers.length === 0}
          emptyText={_('adminSettings.system.noProviders')}
        >
          {status.payments.providers.map((provider) => (
            <tr key={provider.method}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">{_(PROVIDER_NAMES[provider.method])}</Cell>
              <Cell>
                <ActiveBadge active={provider.offered} />
              </Cell>
              <Cell>
                {provider.reachable ? (
                  <StatusBadge tone="green">{_('adminSettings.system.answers', { ms: provider.latencyMs ?? 0 })}</StatusBadge>
                ) : (
                  <span className="text-red-700">
                    <StatusBadge tone="red">{_('adminSettings.system.unreachable')}</StatusBadge> {provider.error}
                  </span>
                )}
              </Cell>
              <Cell className="whitespace-nowrap">{provider.lastPaidAt ? format.dateTime(provider.lastPaidAt) : _('adminSettings.system.neverPaid')}</Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>

      <TabSection title={_('adminSettings.system.recurring')}>
        <RecurringSummary metrics={status.payments.recurring} />
      </TabSection>

      <TabSection title={_('adminSettings.system.review')}>
        <p className="text-sm text-slate-600">{_('adminSettings.system.reviewIntro')}</p>
        <AdminTable
          caption={_('adminSettings.system.review')}
          columns={PAYMENT_COLUMNS.map((column) => _(column))}
          isEmpty={status.payments.needsReview.length + status.payments.disputed.length === 0}
          emptyText={_('adminSettings.system.reviewEmpty')}
        >
          {[...status.payments.needsReview, ...status.payments.disputed].map((payment) => (
            <tr key={payment.id} className="align-top">
              <Cell className="font-medium whitespace-nowrap text-slate-900">
                <bdi>{customerName({ email: payment.userEmail }, _)}</bdi>
              </Cell>
              <Cell>
                <bdi>{payment.planName}</bdi>
              </Cell>
              <Cell className="whitespace-nowrap tabular-nums">{format.money(payment.amount, payment.currency)}</Cell>
              <Cell>
                <BillingStatusBadge status={payment.status} />
                {payment.note && <span className="mt-1 block text-xs text-slate-500">{payment.note}</span>}
              </Cell>
              <Cell className="whitespace-nowrap">{format.dateTime(payment.createdAt)}</Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>

      <TabSection title={_('adminSettings.system.jobs')}>
        {jobCounts.length === 0 ? (
          <p className="text-sm text-slate-600">{_('adminSettings.system.noJobs')}</p>
        ) : (
          <dl className="flex flex-wrap gap-3">
            {jobCounts.map(([state, count]) => (
              <div key={state} className="rounded-lg bg-white px-3 py-2 text-sm shadow-sm ring-1 ring-slate-200">
                <dt className="inline text-slate-600 capitalize">{JOB_STATES.has(state) ? _(`adminSettings.system.jobState.${state}`) : state}: </dt>
                <dd className="inline font-semibold text-slate-900">{format.number(count)}</dd>
              </div>
            ))}
          </dl>
        )}
        <QueuedJobs queued={status.jobs.queued} />
        <h3 className="pt-2 text-sm font-semibold text-slate-900">{_('adminSettings.system.failedJobs')}</h3>
        <AdminTable
          caption={_('adminSettings.system.failedJobs')}
          columns={FAILED_JOB_COLUMNS.map((column) => _(column))}
          isEmpty={status.jobs.failed.length === 0}
          emptyText={_('adminSettings.system.noFailedJobs')}
        >
          {status.jobs.failed.map((job) => (
            <tr key={job.id} className="align-top">
              <Cell className="font-medium whitespace-nowrap text-slate-900">{job.type}</Cell>
              <Cell>{format.number(job.attempts)}</Cell>
              <Cell className="min-w-64 wrap-anywhere text-red-800">{job.lastError ?? '—'}</Cell>
              <Cell className="whitespace-nowrap">{format.dateTime(job.updatedAt)}</Cell>
            </tr>
          ))}
        </AdminTable>
      </TabSection>
    </div>
  );
}
