import { useState } from 'react';
import type { VpnAccount } from '../../../../../shared/accounts.js';
import type { ExtendAccountBody } from '../../../../../shared/users.js';
import { StatusBadge } from '../../accounts/StatusBadge';
import { AdminTable, Cell } from '../AdminTable';
import { formatDataLimit, formatDateTime } from '../admin-format';
import { rowButtonClass } from '../admin-ui';
import { ConfirmDialog } from '../ConfirmDialog';
import { ExtendAccountDialog } from './ExtendAccountDialog';

const COLUMNS = ['Account', 'Status', 'Usage', 'Expires', 'Server', 'Actions'] as const;

export interface AccountActions {
  extend(account: VpnAccount, body: ExtendAccountBody): Promise<void>;
  resetUsage(account: VpnAccount): Promise<void>;
  setEnabled(account: VpnAccount, enabled: boolean): Promise<void>;
  remove(account: VpnAccount): Promise<void>;
}

/** The customer's VPN accounts as last synced, with what an admin can do to each. */
export function UserAccountsSection({ accounts, busyId, actions }: { accounts: VpnAccount[]; busyId: string | null; actions: AccountActions }) {
  const [extending, setExtending] = useState<VpnAccount | null>(null);
  const [deleting, setDeleting] = useState<VpnAccount | null>(null);

  return (
    <section aria-labelledby="user-accounts" className="space-y-3">
      <h2 id="user-accounts" className="text-lg font-semibold text-slate-900">VPN accounts</h2>
      <AdminTable caption="VPN accounts" columns={COLUMNS} isEmpty={accounts.length === 0} emptyText="No VPN accounts.">
        {accounts.map((account) => {
          const busy = busyId === account.id;
          const enabled = account.status !== 'disabled';
          return (
            <tr key={account.id}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">
                {account.username}
                <span className="block text-xs font-normal text-slate-500">{account.planName ?? 'Custom'}</span>
              </Cell>
              <Cell>
                <StatusBadge status={account.status} paymentConfirmed={account.paymentConfirmed} />
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">
                {formatDataLimit(account.usedTrafficBytes)} of {account.dataLimitBytes ? formatDataLimit(account.dataLimitBytes) : 'unlimited'}
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">{account.expireDate ? formatDateTime(account.expireDate) : 'Never'}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{account.server?.name ?? '—'}</Cell>
              <Cell>
                <div className="flex flex-wrap gap-2">
                  <button type="button" disabled={busy} onClick={() => setExtending(account)} className={rowButtonClass.neutral} aria-label={`Extend ${account.username}`}>
                    Extend
                  </button>
                  <button type="button" disabled={busy} onClick={() => void actions.resetUsage(account)} className={rowButtonClass.neutral} aria-label={`Reset usage of ${account.username}`}>
                    Reset usage
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void actions.setEnabled(account, !enabled)}
                    className={rowButtonClass.neutral}
                    aria-label={`${enabled ? 'Disable' : 'Enable'} ${account.username}`}
                  >
                    {enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button type="button" disabled={busy} onClick={() => setDeleting(account)} className={rowButtonClass.danger} aria-label={`Delete ${account.username}`}>
                    Delete
                  </button>
                </div>
              </Cell>
            </tr>
          );
        })}
      </AdminTable>
      {extending && (
        <ExtendAccountDialog
          account={extending}
          onClose={() => setExtending(null)}
          onExtend={async (body) => {
            await actions.extend(extending, body);
            setExtending(null);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.username}`}
          message="The account is deleted on its panel and here; the customer's link stops working. This cannot be undone."
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={busyId === deleting.id}
          onConfirm={() => void actions.remove(deleting).finally(() => setDeleting(null))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
