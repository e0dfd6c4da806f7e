import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { VpnAccount } from '../../../../../shared/accounts.js';
import type { AdminUserAccount } from '../../../../../shared/users.js';
import type { ExtendAccountBody } from '../../../../../shared/users.js';
import { adminApi } from '../../../api/admin-endpoints';
import { useFormat } from '../../../i18n/format';
import { useKeptPlanName } from '../../plans/usePlanText';
import { StatusBadge } from '../../accounts/StatusBadge';
import type { DeviceSource } from '../../devices/device-source';
import { DevicesButton } from '../../devices/DevicesButton';
import { useAccountDevices } from '../../devices/useAccountDevices';
import { AdminTable, Cell } from '../AdminTable';
import { rowButtonClass } from '../admin-ui';
import { ConfirmDialog } from '../ConfirmDialog';
import { ExtendAccountDialog } from './ExtendAccountDialog';

const COLUMN_IDS = [
  'admin.column.account',
  'admin.column.status',
  'admin.column.usage',
  'admin.column.expires',
  'admin.column.server',
  'admin.column.actions',
] as const;

/** Any customer's accounts' devices, through the admin API. */
const CUSTOMER_DEVICES: DeviceSource = { list: adminApi.accounts.listDevices, remove: adminApi.accounts.removeDevice };

export interface AccountActions {
  extend(account: VpnAccount, body: ExtendAccountBody): Promise<void>;
  resetUsage(account: VpnAccount): Promise<void>;
  setEnabled(account: VpnAccount, enabled: boolean): Promise<void>;
  remove(account: VpnAccount): Promise<void>;
}

/** The customer's VPN accounts as last synced, with what an admin can do to each (their devices too). */
export function UserAccountsSection({ accounts, busyId, actions }: { accounts: AdminUserAccount[]; busyId: string | null; actions: AccountActions }) {
  const { _ } = useLingui();
  const planName = useKeptPlanName();
  const format = useFormat();
  const [extending, setExtending] = useState<VpnAccount | null>(null);
  const [deleting, setDeleting] = useState<VpnAccount | null>(null);
  const devices = useAccountDevices(accounts, CUSTOMER_DEVICES);

  return (
    <section aria-labelledby="user-accounts" className="space-y-3">
      <h2 id="user-accounts" className="text-lg font-semibold text-slate-900">
        {_('admin.accounts.title')}
      </h2>
      <AdminTable
        caption={_('admin.accounts.title')}
        columns={COLUMN_IDS.map((column) => _(column))}
        isEmpty={accounts.length === 0}
        emptyText={_('admin.accounts.empty')}
        pinLastColumn
      >
        {accounts.map((account) => {
          const busy = busyId === account.id;
          const enabled = account.status !== 'disabled';
          const deviceState = devices.stateOf(account);
          return (
            <tr key={account.id}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">
                {account.username}
                <span className="block text-xs font-normal text-slate-500">
                  {account.planName ? planName(account.planName, account.planId, account.planNames) : _('admin.accounts.custom')}
                </span>
              </Cell>
              <Cell>
                <StatusBadge status={account.status} paymentConfirmed={account.paymentConfirmed} />
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">
                {_('admin.accounts.usage', {
                  used: format.bytes(account.usedTrafficBytes),
                  limit: account.dataLimitBytes ? format.bytes(account.dataLimitBytes) : _('admin.accounts.unlimited'),
                })}
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">{account.expireDate ? format.dateTime(account.expireDate) : _('format.never')}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{account.serverInternalName ?? account.server?.name ?? '—'}</Cell>
              <Cell>
                <div className="flex flex-wrap gap-2">
                  {deviceState && (
                    <DevicesButton state={deviceState} who={account.username} onOpen={() => devices.open(account)} className={rowButtonClass.neutral} />
                  )}
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => setExtending(account)}
                    className={rowButtonClass.neutral}
                    aria-label={_('admin.accounts.extendLabel', { username: account.username })}
                  >
                    {_('admin.accounts.extend')}
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void actions.resetUsage(account)}
                    className={rowButtonClass.neutral}
                    aria-label={_('admin.accounts.resetUsageLabel', { username: account.username })}
                  >
                    {_('admin.accounts.resetUsage')}
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void actions.setEnabled(account, !enabled)}
                    className={rowButtonClass.neutral}
                    aria-label={_(enabled ? 'admin.accounts.disableLabel' : 'admin.accounts.enableLabel', { username: account.username })}
                  >
                    {enabled ? _('admin.row.disable') : _('admin.row.enable')}
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => setDeleting(account)}
                    className={rowButtonClass.danger}
                    aria-label={_('admin.accounts.deleteLabel', { username: account.username })}
                  >
                    {_('admin.common.delete')}
                  </button>
                </div>
              </Cell>
            </tr>
          );
        })}
      </AdminTable>
      {devices.dialog}
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
          title={_('admin.accounts.deleteLabel', { username: deleting.username })}
          message={_('admin.accounts.confirmDelete')}
          confirmLabel={_('admin.common.delete')}
          busyLabel={_('admin.common.deleting')}
          busy={busyId === deleting.id}
          onConfirm={() => void actions.remove(deleting).finally(() => setDeleting(null))}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
