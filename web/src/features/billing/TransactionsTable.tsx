import type { Transaction } from '../../../../shared/billing.js';
import { BillingStatusBadge, RenewalTag } from './BillingStatusBadge';
import { formatAmount, formatDateTime } from './billing-format';
import { describeCryptoProgress } from './payment-return';

const COLUMNS = ['Date', 'Plan', 'Amount', 'Status'] as const;

/** The customer's payments, newest first: date, plan (with a 'Renewal' tag), amount and how it was paid, and status. */
export function TransactionsTable({ transactions }: { transactions: readonly Transaction[] }) {
  if (transactions.length === 0) {
    return <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-600 ring-1 ring-slate-200">No transactions yet.</p>;
  }
  return (
    <div className="overflow-x-auto rounded-xl ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="sr-only">Your transactions, newest first</caption>
        <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-4 py-2.5 whitespace-nowrap">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {transactions.map((transaction) => (
            <tr key={transaction.id}>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-700">{formatDateTime(transaction.createdAt)}</td>
              <td className="px-4 py-2.5 font-medium text-slate-900">
                {transaction.planName}
                {transaction.renewal && <RenewalTag />}
              </td>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-700 tabular-nums">
                {formatAmount(transaction.amount, transaction.currency)}
                <span className="block text-xs text-slate-500">{transaction.method === 'crypto' ? 'Crypto' : 'Card'}</span>
                {transaction.amountRefunded > 0 && transaction.amountRefunded < transaction.amount && (
                  <span className="block text-xs text-slate-500">{formatAmount(transaction.amountRefunded, transaction.currency)} refunded</span>
                )}
              </td>
              <td className="px-4 py-2.5">
                <BillingStatusBadge status={transaction.status} />
                {transaction.crypto && <span className="mt-1 block max-w-60 text-xs text-slate-600">{describeCryptoProgress(transaction.crypto)}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
