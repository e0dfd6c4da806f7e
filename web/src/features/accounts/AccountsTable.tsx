import { useLingui } from '@lingui/react';
import { useId, type ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { accountApi } from '../../api/account-endpoints';
import { PastDueNotices } from '../billing/AccountBillingParts';
import type { AccountsBilling } from '../billing/useAccountBilling';
import type { DeviceSource } from '../devices/device-source';
import { useAccountDevices } from '../devices/useAccountDevices';
import { AccountRow, type AccountRowActions } from './AccountRow';

/** The customer's own accounts' devices. */
const OWN_DEVICES: DeviceSource = { list: accountApi.listDevices, remove: accountApi.removeDevice };

/** The column headings' message ids. */
const COLUMNS = [
  'account.table.account',
  'account.table.status',
  'account.table.expires',
  'account.table.dataLimit',
  'account.table.trafficUsed',
  'account.table.subscriptionLink',
  'account.table.actions',
] as const;

interface AccountsTableProps {
  accounts: readonly VpnAccount[];
  deletingId: string | null;
  actions: AccountRowActions;
  /** Beside the heading, e.g. the 'Transaction History' button. */
  headerAction?: ReactNode;
  /** Recurring subscriptions: each account's renewal and billing buttons, and a warning for a failed renewal charge. */
  billing?: AccountsBilling;
  /** Whether plans are on sale above: the empty state points at them only then. */
  plansShown?: boolean;
}

/** 'Your Accounts': a table on wide screens, stacked cards on phones. */
export function AccountsTable({ accounts, deletingId, actions, headerAction, billing, plansShown = true }: AccountsTableProps) {
  const { _ } = useLingui();
  const headingId = useId();
  const devices = useAccountDevices(accounts, OWN_DEVICES);
  return (
    <section aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold tracking-tight text-slate-900">
          {_('account.table.heading')}
        </h2>
        {headerAction}
      </div>
      {billing && <PastDueNotices accounts={accounts} billing={billing} />}
      {accounts.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-6 text-slate-600 shadow-sm ring-1 ring-slate-200">
          {_(plansShown ? 'account.table.emptyWithPlans' : 'account.table.empty')}
        </p>
      ) : (
        <div className="mt-4 rounded-xl bg-white shadow-sm ring-1 ring-slate-200 md:overflow-x-auto">
          <table className="block w-full text-start text-sm md:table md:min-w-full md:divide-y md:divide-slate-200">
            <caption className="sr-only">{_('account.table.caption')}</caption>
            <thead className="sr-only bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase md:not-sr-only md:table-header-group">
              <tr>
                {COLUMNS.map((column) => (
                  <th key={column} scope="col" className="px-4 py-3 whitespace-nowrap">
                    {_(column)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="block divide-y divide-slate-100 md:table-row-group">
              {accounts.map((account) => {
                const state = devices.stateOf(account);
                return (
                  <AccountRow
                    key={account.id}
                    account={account}
                    deleting={deletingId === account.id}
                    actions={actions}
                    billing={billing}
                    devices={state && { state, open: () => devices.open(account) }}
                  />
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {devices.dialog}
    </section>
  );
}
