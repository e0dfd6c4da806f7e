import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { AdminServer } from '../../../../shared/servers.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { useToast } from '../toast/toast-context';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { buttonClass, rowButtonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { formatLocations } from './admin-format';
import { ConfirmDialog } from './ConfirmDialog';
import { ActiveBadge, RowActions } from './RowActions';
import { PANEL_KIND_LABELS } from './server-form';
import { ImportUsersDialog } from './ImportUsersDialog';
import { ServerFormDialog } from './ServerFormDialog';
import { ServerHealth } from './ServerHealth';
import { useAdminResource } from './useAdminResource';
import { useBusyIds } from './useBusyIds';

const MESSAGES = {
  loadFailed: 'admin.servers.loadFailed',
  added: 'admin.servers.added',
  updated: 'admin.servers.updated',
  deleted: 'admin.servers.deleted',
  deleteFailed: 'admin.servers.deleteFailed',
  enabled: 'admin.servers.enabled',
  disabled: 'admin.servers.disabled',
  statusFailed: 'admin.servers.statusFailed',
  confirmDelete: 'admin.servers.confirmDelete',
} as const;

const COLUMN_IDS = [
  'admin.column.name',
  'admin.column.kind',
  'admin.column.url',
  'admin.column.locations',
  'admin.column.status',
  'admin.column.health',
  'admin.column.actions',
] as const;

type FormState = { server: AdminServer | null } | null;

/** Master servers (VPN panels): list, add, edit, enable or disable, delete. */
export function ServersTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const toast = useToast();
  const { data: servers, setData: setServers, loadState } = useAdminResource(adminApi.servers.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [form, setForm] = useState<FormState>(null);
  const [toDelete, setToDelete] = useState<AdminServer | null>(null);
  const [importing, setImporting] = useState<AdminServer | null>(null);

  const replace = (updated: AdminServer) => setServers((list) => list?.map((server) => (server.id === updated.id ? updated : server)) ?? [updated]);

  function onSaved(saved: AdminServer) {
    const isNew = !servers?.some((server) => server.id === saved.id);
    if (isNew) setServers((list) => [...(list ?? []), saved]);
    else replace(saved);
    toast.success(_(isNew ? MESSAGES.added : MESSAGES.updated));
    setForm(null);
  }

  const toggleStatus = (server: AdminServer) =>
    runBusy(server.id, async () => {
      const enabling = server.status === 'disabled';
      try {
        replace(await (enabling ? adminApi.servers.enable(server.id) : adminApi.servers.disable(server.id)));
        toast.success(_(enabling ? MESSAGES.enabled : MESSAGES.disabled));
      } catch (err) {
        toast.error(errorMessage(err, _(MESSAGES.statusFailed)));
      }
    });

  const deleteServer = (server: AdminServer) =>
    runBusy(server.id, async () => {
      try {
        await adminApi.servers.remove(server.id);
        setServers((list) => list?.filter((item) => item.id !== server.id) ?? null);
        toast.success(_(MESSAGES.deleted));
      } catch (err) {
        toast.error(errorMessage(err, _(MESSAGES.deleteFailed)));
      } finally {
        setToDelete(null);
      }
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{_('admin.servers.intro')}</p>
        <button type="button" onClick={() => setForm({ server: null })} className={buttonClass.primary}>
          {_('admin.servers.add')}
        </button>
      </div>

      {loadState === 'failed' && <AlertBox>{_(MESSAGES.loadFailed)}</AlertBox>}

      {loadState === 'loading' && !servers ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.servers.caption')}
          columns={COLUMN_IDS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={servers?.length === 0}
          emptyText={_('admin.servers.empty')}
          pinLastColumn
        >
          {servers?.map((server) => (
            <tr key={server.id}>
              <Cell className="min-w-40 font-medium text-slate-900">
                <bdi>{server.name}</bdi>
              </Cell>
              <Cell>{PANEL_KIND_LABELS[server.kind]}</Cell>
              <Cell className="max-w-56 truncate text-slate-700">
                <span title={server.url}>{server.url}</span>
              </Cell>
              <Cell>{formatLocations(server.locations, _('admin.locations.all'))}</Cell>
              <Cell>
                <ActiveBadge active={server.status === 'active'} />
              </Cell>
              <Cell>
                <ServerHealth server={server} />
              </Cell>
              <Cell>
                <RowActions
                  name={server.name}
                  active={server.status === 'active'}
                  busy={isBusy(server.id)}
                  onEdit={() => setForm({ server })}
                  onToggle={() => void toggleStatus(server)}
                  onDelete={() => setToDelete(server)}
                >
                  <button type="button" onClick={() => setImporting(server)} disabled={isBusy(server.id)} className={rowButtonClass.neutral}>
                    {_('admin.import.action')}
                    <span className="sr-only"> {server.name}</span>
                  </button>
                </RowActions>
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}

      {importing && <ImportUsersDialog server={importing} onClose={() => setImporting(null)} />}
      {form && <ServerFormDialog server={form.server} onClose={() => setForm(null)} onSaved={onSaved} />}
      {toDelete && (
        <ConfirmDialog
          title={_('admin.servers.deleteTitle')}
          message={_(MESSAGES.confirmDelete)}
          confirmLabel={_('admin.common.delete')}
          busyLabel={_('admin.common.deleting')}
          busy={isBusy(toDelete.id)}
          onConfirm={() => void deleteServer(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </div>
  );
}
