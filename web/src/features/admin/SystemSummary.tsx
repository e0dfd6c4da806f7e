import type { ReactNode } from 'react';
import type { SystemStatus } from '../../../../shared/accounts.js';
import type { RecurringMetrics } from '../../../../shared/billing.js';
import { formatAmount } from '../billing/billing-format';
import { cardClass } from './admin-ui';
import { StatusBadge } from './StatusBadge';

function SummaryCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={`${cardClass} p-4`}>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const okBadge = (ok: boolean, okText = 'OK', failText = 'Down') => (
  <StatusBadge tone={ok ? 'green' : 'red'}>{ok ? okText : failText}</StatusBadge>
);

/** Database, mail, card payments and version, as a row of cards. */
export function SystemSummary({ status }: { status: SystemStatus }) {
  const { database, mail, payments, version } = status;
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
      <SummaryCard label="Database">
        {okBadge(database.ok)}
        <span>{database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}</span>
      </SummaryCard>
      <SummaryCard label="Mail">
        {okBadge(mail.ok, 'OK', 'Failing')}
        <span>{mail.kind === 'smtp' ? 'SMTP' : 'Printed to log'}</span>
      </SummaryCard>
      <SummaryCard label="Card payments">
        <StatusBadge tone={payments.cardEnabled ? 'green' : 'gray'}>{payments.cardEnabled ? 'Enabled' : 'Not enabled'}</StatusBadge>
      </SummaryCard>
      <SummaryCard label="Crypto payments">
        <StatusBadge tone={payments.cryptoEnabled ? 'green' : 'gray'}>{payments.cryptoEnabled ? 'Enabled' : 'Not enabled'}</StatusBadge>
      </SummaryCard>
      <SummaryCard label="Version">
        <span className="font-mono">{version}</span>
      </SummaryCard>
    </dl>
  );
}

/** A count or sum, big. */
const figure = (value: string | number) => <span className="text-2xl font-semibold tabular-nums">{value}</span>;

/** The recurring business at a glance: subscriptions by state and the monthly recurring revenue. */
export function RecurringSummary({ metrics }: { metrics: RecurringMetrics }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <SummaryCard label="Active recurring subscriptions">{figure(metrics.activeRecurring)}</SummaryCard>
      <SummaryCard label="Past due">
        {figure(metrics.pastDue)}
        {metrics.pastDue > 0 && <StatusBadge tone="amber">Renewal payment failed</StatusBadge>}
      </SummaryCard>
      <SummaryCard label="Canceling at period end">{figure(metrics.cancelingAtPeriodEnd)}</SummaryCard>
      <SummaryCard label="Monthly recurring revenue">{figure(formatAmount(metrics.monthlyRecurringRevenue, metrics.currency))}</SummaryCard>
    </dl>
  );
}
