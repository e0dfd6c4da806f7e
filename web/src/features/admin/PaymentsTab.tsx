import { useCallback, useId, useState } from 'react';
import { TRANSACTION_STATUSES, type AdminTransaction, type TransactionStatus } from '../../../../shared/billing.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { BillingStatusBadge, RenewalTag } from '../billing/BillingStatusBadge';
import { formatAmount, formatDateTime } from '../billing/billing-format';
import { useToast } from '../toast/toast-context';
import { AdminTable, Cell } from './AdminTable';
import { inputClass, rowButtonClass } from './admin-ui';
import { RefundDialog } from './RefundDialog';
import { SubscriptionsSection } from './SubscriptionsSection';
import { useAdminResource } from './useAdminResource';

const COLUMNS = ['Date', 'Customer', 'Plan', 'Amount', 'Status', 'Actions'] as const;
const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed', needs_review: 'Needs review', refunded: 'Refunded', disputed: 'Disputed',
};

/**
 * Every customer's payments, newest first, filterable by status, with a Refund action on paid ones;
 * then the recurring subscriptions.
 */
export function PaymentsTab({ refreshKey }: { refreshKey: number }) {
  return (
    <div className="space-y-10">
      <TransactionsSection refreshKey={refreshKey} />
      <SubscriptionsSection refreshKey={refreshKey} />
    </div>
  );
}

/** 'Transactions': payments, newest first, filterable by status, with Refund on paid ones. */
function TransactionsSection({ refreshKey }: { refreshKey: number }) {
  const id = useId();
  const toast = useToast();
  const [status, setStatus] = useState<TransactionStatus | null>(null);
  const [refunding, setRefunding] = useState<AdminTransaction | null>(null);
  const load = useCallback((signal: AbortSignal) => adminApi.payments.listTransactions(status, signal), [status]);
  const { data, setData, loadState } = useAdminResource(load, refreshKey);
  const items = data ?? [];

  async function refund(transaction: AdminTransaction, body: Parameters<typeof adminApi.payments.refund>[1]) {
    const updated = await adminApi.payments.refund(transaction.id, body);
    setData((list) => list && list.map((item) => (item.id === updated.id ? updated : item)));
    setRefunding(null);
    toast.success(updated.status === 'refunded' ? 'Payment refunded' : 'Partial refund sent');
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        Transactions
      </h2>
      <div className="max-w-xs">
        <label htmlFor={`${id}-status`} className="block text-sm font-medium text-slate-700">
          Status
        </label>
        <select
          id={`${id}-status`}
          value={status ?? ''}
          onChange={(event) => setStatus((event.target.value || null) as TransactionStatus | null)}
          className={inputClass}
        >
          <option value="">All</option>
          {TRANSACTION_STATUSES.map((value) => (
            <option key={value} value={value}>
              {STATUS_LABELS[value]}
            </option>
          ))}
        </select>
      </div>

      {loadState === 'failed' && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          Failed to load payments
        </div>
      )}
      {loadState === 'loading' && items.length === 0 ? (
        <Loading />
      ) : (
        <AdminTable caption="Payments" columns={COLUMNS} busy={loadState === 'loading'} isEmpty={loadState === 'loaded' && items.length === 0} emptyText="No payments found.">
          {items.map((item) => (
            <tr key={item.id}>
              <Cell className="whitespace-nowrap text-slate-700">{formatDateTime(item.createdAt)}</Cell>
              <Cell className="font-medium text-slate-900">{item.userEmail}</Cell>
              <Cell>
                {item.planName}
                {item.renewal && <RenewalTag />}
              </Cell>
              <Cell className="whitespace-nowrap tabular-nums">
                {formatAmount(item.amount, item.currency)}
                <span className="block text-xs text-slate-500">{item.method === 'crypto' ? 'Crypto' : 'Card'}</span>
                {item.amountRefunded > 0 && <span className="block text-xs text-slate-500">{formatAmount(item.amountRefunded, item.currency)} refunded</span>}
                {item.refundClaimUrl && (
                  <a href={item.refundClaimUrl} target="_blank" rel="noopener noreferrer" className="block text-xs text-indigo-700 underline">
                    Refund claim link<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                )}
              </Cell>
              <Cell>
                <BillingStatusBadge status={item.status} />
                {item.note && <span className="mt-1 block text-xs text-slate-500">{item.note}</span>}
              </Cell>
              <Cell>
                {item.refundable && (
                  <button type="button" onClick={() => setRefunding(item)} className={rowButtonClass.danger}>
                    Refund<span className="sr-only"> {item.userEmail} {item.planName}</span>
                  </button>
                )}
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      {refunding && <RefundDialog transaction={refunding} onRefund={(body) => refund(refunding, body)} onClose={() => setRefunding(null)} />}
    </section>
  );
}
