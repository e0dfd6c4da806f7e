import { useLingui } from '@lingui/react';
import { useCallback, useId, useState } from 'react';
import { TRANSACTION_STATUSES, type AdminTransaction, type TransactionStatus } from '../../../../shared/billing.js';
import type { TransactionMethod } from '../../../../shared/billing-schemas.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { BillingStatusBadge, RenewalTag } from '../billing/BillingStatusBadge';
import { useFormat } from '../../i18n/format';
import { useToast } from '../toast/toast-context';
import { AdminTable, Cell } from './AdminTable';
import { inputClass, rowButtonClass } from './admin-ui';
import { RefundDialog } from './RefundDialog';
import { RevenueSection } from './RevenueSection';
import { SubscriptionsSection } from './SubscriptionsSection';
import { useAdminResource } from './useAdminResource';
import { customerName } from '../../components/header/customer-name';

/** The column headings, as message ids. */
const COLUMNS = [
  'adminSettings.column.date',
  'adminSettings.column.customer',
  'adminSettings.column.plan',
  'adminSettings.column.amount',
  'adminSettings.column.status',
  'adminSettings.column.actions',
] as const;
/** The status filter's options, as message ids. */
const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending: 'adminSettings.payments.status.pending',
  succeeded: 'adminSettings.payments.status.succeeded',
  failed: 'adminSettings.payments.status.failed',
  cancelled: 'adminSettings.payments.status.cancelled',
  needs_review: 'adminSettings.payments.status.needs_review',
  refunded: 'adminSettings.payments.status.refunded',
  disputed: 'adminSettings.payments.status.disputed',
};

/**
 * Every customer's payments, newest first, filterable by status, with a Refund action on paid ones;
 * then the recurring subscriptions.
 */
/** The method a payment was taken with, as the admin reads it. */
const METHOD_NAMES: Record<TransactionMethod, string> = {
  card: 'adminSettings.payments.methodCard',
  crypto: 'adminSettings.payments.methodCrypto',
  yookassa: 'adminSettings.payments.methodYookassa',
  cryptopay: 'adminSettings.payments.methodCryptopay',
  stars: 'adminSettings.payments.methodStars',
  wallet: 'adminSettings.payments.methodWallet',
  gift_code: 'adminSettings.payments.giftCode',
};

/** What was paid and how; a gift code's redemption is its own kind: nothing was paid, the code paid for it. */
function PaymentAmount({ item }: { item: AdminTransaction }) {
  const { _ } = useLingui();
  const format = useFormat();
  if (item.giftCode)
    return (
      <>
        {_('adminSettings.payments.giftCode')}
        <span className="block font-mono text-xs text-slate-500">{item.giftCode}</span>
      </>
    );
  return (
    <>
      {format.money(item.amount, item.currency)}
      <span className="block text-xs text-slate-500">{_(METHOD_NAMES[item.method])}</span>
    </>
  );
}

export function PaymentsTab({ refreshKey }: { refreshKey: number }) {
  return (
    <div className="space-y-10">
      <RevenueSection refreshKey={refreshKey} methodNames={METHOD_NAMES} />
      <TransactionsSection refreshKey={refreshKey} />
      <SubscriptionsSection refreshKey={refreshKey} />
    </div>
  );
}

/** 'Transactions': payments, newest first, filterable by status, with Refund on paid ones. */
function TransactionsSection({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const toast = useToast();
  const [status, setStatus] = useState<TransactionStatus | null>(null);
  const [method, setMethod] = useState<TransactionMethod | null>(null);
  const [refunding, setRefunding] = useState<AdminTransaction | null>(null);
  const load = useCallback((signal: AbortSignal) => adminApi.payments.listTransactions({ status, method }, signal), [status, method]);
  const { data, setData, loadState } = useAdminResource(load, refreshKey);
  const items = data ?? [];

  async function refund(transaction: AdminTransaction, body: Parameters<typeof adminApi.payments.refund>[1]) {
    const updated = await adminApi.payments.refund(transaction.id, body);
    setData((list) => list && list.map((item) => (item.id === updated.id ? updated : item)));
    setRefunding(null);
    toast.success(updated.status === 'refunded' ? _('adminSettings.payments.refunded') : _('adminSettings.payments.partiallyRefunded'));
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        {_('adminSettings.payments.transactions')}
      </h2>
      <div className="flex flex-wrap gap-4">
        <div className="w-full max-w-xs">
          <label htmlFor={`${id}-status`} className="block text-sm font-medium text-slate-700">
            {_('adminSettings.payments.statusFilter')}
          </label>
          <select
            id={`${id}-status`}
            value={status ?? ''}
            onChange={(event) => setStatus((event.target.value || null) as TransactionStatus | null)}
            className={inputClass}
          >
            <option value="">{_('adminSettings.payments.allStatuses')}</option>
            {TRANSACTION_STATUSES.map((value) => (
              <option key={value} value={value}>
                {_(STATUS_LABELS[value])}
              </option>
            ))}
          </select>
        </div>
        <div className="w-full max-w-xs">
          <label htmlFor={`${id}-method`} className="block text-sm font-medium text-slate-700">
            {_('adminSettings.payments.methodFilter')}
          </label>
          <select
            id={`${id}-method`}
            value={method ?? ''}
            onChange={(event) => setMethod((event.target.value || null) as TransactionMethod | null)}
            className={inputClass}
          >
            <option value="">{_('adminSettings.payments.allMethods')}</option>
            {(Object.keys(METHOD_NAMES) as TransactionMethod[]).map((value) => (
              <option key={value} value={value}>
                {_(METHOD_NAMES[value])}
              </option>
            ))}
          </select>
        </div>
      </div>

      {loadState === 'failed' && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {_('adminSettings.payments.loadFailed')}
        </div>
      )}
      {loadState === 'loading' && items.length === 0 ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('adminSettings.payments.caption')}
          columns={COLUMNS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={loadState === 'loaded' && items.length === 0}
          emptyText={_('adminSettings.payments.empty')}
          pinLastColumn
        >
          {items.map((item) => (
            <tr key={item.id}>
              <Cell className="whitespace-nowrap text-slate-700">{format.dateTime(item.createdAt)}</Cell>
              <Cell className="font-medium text-slate-900">
                <bdi>{customerName({ email: item.userEmail }, _)}</bdi>
              </Cell>
              <Cell>
                {item.topUp ? _('adminSettings.payments.topUp') : item.planName}
                {item.renewal && <RenewalTag />}
              </Cell>
              <Cell className="whitespace-nowrap tabular-nums">
                <PaymentAmount item={item} />
                {item.amountRefunded > 0 && (
                  <span className="block text-xs text-slate-500">
                    {_('adminSettings.payments.amountRefunded', { amount: format.money(item.amountRefunded, item.currency) })}
                  </span>
                )}
                {item.refundClaimUrl && (
                  <a href={item.refundClaimUrl} target="_blank" rel="noopener noreferrer" className="block text-xs text-indigo-700 underline">
                    {_('adminSettings.payments.refundClaimLink')}
                    <span className="sr-only"> {_('adminSettings.payments.opensInNewTab')}</span>
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
                    {_('adminSettings.payments.refund')}
                    <span className="sr-only">
                      {' '}
                      {customerName({ email: item.userEmail }, _)} {item.planName}
                    </span>
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
