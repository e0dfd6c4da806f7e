import { useLingui } from '@lingui/react';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { AdminTable, Cell } from '../AdminTable';
import { AlertBox } from '../AlertBox';
import { ActiveBadge } from '../RowActions';
import { ServerHealth } from '../ServerHealth';
import { useAdminResource } from '../useAdminResource';

const COLUMN_IDS = ['admin.column.server', 'admin.column.status', 'admin.column.health'] as const;

/** Each master server's health, as the Master Servers tab shows it (the same list and checks). */
export function ServersHealth({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const { data: servers, loadState } = useAdminResource(adminApi.servers.list, refreshKey);

  if (loadState === 'failed' && !servers) return <AlertBox>{_('admin.servers.loadFailed')}</AlertBox>;
  if (!servers) return <Loading className="py-6" />;
  return (
    <AdminTable
      caption={_('admin.overview.serversHealth')}
      columns={COLUMN_IDS.map((column) => _(column))}
      busy={loadState === 'loading'}
      isEmpty={servers.length === 0}
      emptyText={_('admin.overview.noMasterServers')}
      pinLastColumn={false}
    >
      {servers.map((server) => (
        <tr key={server.id} className="align-top">
          <Cell className="font-medium text-slate-900">
            <bdi>{server.name}</bdi>
          </Cell>
          <Cell>
            <ActiveBadge active={server.status === 'active'} />
          </Cell>
          <Cell>
            <ServerHealth server={server} />
          </Cell>
        </tr>
      ))}
    </AdminTable>
  );
}
