import { useLingui } from '@lingui/react';
import type { Transaction } from '../../../../shared/billing.js';
import { useFormat } from '../../i18n/format';
import { useKeptPlanName } from '../plans/usePlanText';
import { BillingStatusBadge, RenewalTag } from './BillingStatusBadge';
import { describeCryptoProgress } from './payment-return';

/** The column headings' message ids. */
const COLUMNS = ['account.transactions.date', 'account.transactions.plan', 'account.transactions.amount', 'account.transactions.status'] as const;

/** The customer's payments, newest first: date, plan (with a 'Renewal' tag), amount and how it was paid, and status. */
export function TransactionsTable({ transactions }: { transactions: readonly Transaction[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  const planName = useKeptPlanName();
  if (transactions.length === 0) {
    return <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-600 ring-1 ring-slate-200">{_('account.transactions.empty')}</p>;
  }
  return (
    <div className="overflow-x-auto rounded-xl ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-start text-sm">
        <caption className="sr-only">{_('account.transactions.caption')}</caption>
        <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-4 py-2.5 whitespace-nowrap">
                {_(column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {transactions.map((transaction) => (
            <tr key={transaction.id}>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-700">{format.dateTime(transaction.createdAt)}</td>
              <td className="px-4 py-2.5 font-medium text-slate-900">
                <bdi>{transaction.topUp ? _('account.transactions.topUp') : planName(transaction.planName, null, transaction.planNames)}</bdi>
                {transaction.renewal && <RenewalTag />}
              </td>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-700 tabular-nums">
                {format.money(transaction.amount, transaction.currency)}
                {transaction.giftCode ? (
                  <span className="block text-xs text-slate-500">{_('account.transactions.gift')}</span>
                ) : transaction.credit && transaction.amount === 0 ? (
                  <span className="block text-xs text-slate-500">{_('account.transactions.wallet')}</span>
                ) : transaction.promo && transaction.amount === 0 ? (
                  <span className="block text-xs text-slate-500">{_('account.transactions.free', { code: transaction.promo.code })}</span>
                ) : (
                  <span className="block text-xs text-slate-500">{_(`account.transactions.${transaction.method}`)}</span>
                )}
                {transaction.promo && (transaction.amount > 0 || Boolean(transaction.credit)) && (
                  <span className="block text-xs text-slate-500">
                    {_('account.transactions.promo', {
                      code: transaction.promo.code,
                      discount: format.money(transaction.promo.discount, transaction.currency),
                    })}
                  </span>
                )}
                {transaction.credit ? (
                  <span className="block text-xs text-slate-500">
                    {_('account.transactions.credit', { amount: format.money(transaction.credit, transaction.currency) })}
                  </span>
                ) : null}
                {transaction.amountRefunded > 0 && transaction.amountRefunded < transaction.amount && (
                  <span className="block text-xs text-slate-500">
                    {_('account.transactions.refunded', { amount: format.money(transaction.amountRefunded, transaction.currency) })}
                  </span>
                )}
              </td>
              <td className="px-4 py-2.5">
                <BillingStatusBadge status={transaction.status} />
                {transaction.crypto && (
                  <span className="mt-1 block max-w-60 text-xs text-slate-600">
                    {describeCryptoProgress(transaction.crypto, transaction.currency, _, format)}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
