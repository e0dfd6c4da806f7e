import { useState } from 'react';
import type { AdminServer } from '../../../../shared/servers.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { useToast } from '../toast/toast-context';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { formatLocations } from './admin-format';
import { ConfirmDialog } from './ConfirmDialog';
import { ActiveBadge, RowActions } from './RowActions';
import { PANEL_KIND_LABELS } from './server-form';
import { ServerFormDialog } from './ServerFormDialog';
import { ServerHealth } from './ServerHealth';
import { useAdminResource } from './useAdminResource';
import { useBusyIds } from './useBusyIds';

const MESSAGES = {
  loadFailed: 'Failed to fetch servers',
  added: 'Server added successfully',
  updated: 'Server updated successfully',
  deleted: 'Server deleted successfully',
  deleteFailed: 'Failed to delete server',
  enabled: 'Server enabled',
  disabled: 'Server disabled',
  statusFailed: 'Failed to update server status',
  confirmDelete: 'Are you sure you want to delete this server? This action cannot be undone.',
} as const;

const COLUMNS = ['Name', 'Kind', 'URL', 'Locations', 'Status', 'Health', 'Actions'] as const;

type FormState = { server: AdminServer | null } | null;

/** Master servers (VPN panels): list, add, edit, enable or disable, delete. */
export function ServersTab({ refreshKey }: { refreshKey: number }) {
  const toast = useToast();
  const { data: servers, setData: setServers, loadState } = useAdminResource(adminApi.servers.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [form, setForm] = useState<FormState>(null);
  const [toDelete, setToDelete] = useState<AdminServer | null>(null);

  const replace = (updated: AdminServer) =>
    setServers((list) => list?.map((server) => (server.id === updated.id ? updated : server)) ?? [updated]);

  function onSaved(saved: AdminServer) {
    const isNew = !servers?.some((server) => server.id === saved.id);
    if (isNew) setServers((list) => [...(list ?? []), saved]);
    else replace(saved);
    toast.success(isNew ? MESSAGES.added : MESSAGES.updated);
    setForm(null);
  }

  const toggleStatus = (server: AdminServer) =>
    runBusy(server.id, async () => {
      const enabling = server.status === 'disabled';
      try {
        replace(await (enabling ? adminApi.servers.enable(server.id) : adminApi.servers.disable(server.id)));
        toast.success(enabling ? MESSAGES.enabled : MESSAGES.disabled);
      } catch (err) {
        toast.error(errorMessage(err, MESSAGES.statusFailed));
      }
    });

  const deleteServer = (server: AdminServer) =>
    runBusy(server.id, async () => {
      try {
        await adminApi.servers.remove(server.id);
        setServers((list) => list?.filter((item) => item.id !== server.id) ?? null);
        toast.success(MESSAGES.deleted);
      } catch (err) {
        toast.error(errorMessage(err, MESSAGES.deleteFailed));
      } finally {
        setToDelete(null);
      }
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">The VPN panels that accounts are created on.</p>
        <button type="button" onClick={() => setForm({ server: null })} className={buttonClass.primary}>
          Add server
        </button>
      </div>

      {loadState === 'failed' && <AlertBox>{MESSAGES.loadFailed}</AlertBox>}

      {loadState === 'loading' && !servers ? (
        <Loading />
      ) : (
        <AdminTable caption="Master servers" columns={COLUMNS} busy={loadState === 'loading'} isEmpty={servers?.length === 0} emptyText="No servers yet.">
          {servers?.map((server) => (
            <tr key={server.id}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">{server.name}</Cell>
              <Cell>{PANEL_KIND_LABELS[server.kind]}</Cell>
              <Cell className="max-w-56 truncate text-slate-700">
                <span title={server.url}>{server.url}</span>
              </Cell>
              <Cell>{formatLocations(server.locations)}</Cell>
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
                />
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}

      {form && <ServerFormDialog server={form.server} onClose={() => setForm(null)} onSaved={onSaved} />}
      {toDelete && (
        <ConfirmDialog
          title="Delete server"
          message={MESSAGES.confirmDelete}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={isBusy(toDelete.id)}
          onConfirm={() => void deleteServer(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </div>
  );
}
