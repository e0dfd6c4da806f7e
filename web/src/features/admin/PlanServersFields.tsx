import { useLingui } from '@lingui/react';
import type { PlanServer } from '../../../../shared/plan-servers.js';
import type { AdminServer } from '../../../../shared/servers.js';
import { adminApi } from '../../api/admin-endpoints';
import { formatLocations } from './admin-format';
import { CheckboxField } from './form-fields';
import { MULTI_SERVICE_KINDS } from './server-form';
import { ServiceIdField } from './ServiceIdField';
import { useAdminResource } from './useAdminResource';

const loadServers = (signal: AbortSignal) => adminApi.servers.list(signal);

interface PlanServersFieldsProps {
  /** The servers the plan lists, each with its squads or groups there ('' = the server's own). */
  servers: PlanServer[];
  onChange: (servers: PlanServer[]) => void;
  /** The server's field errors (`servers.0.serviceId`, …). */
  fields: Record<string, string>;
  disabled: boolean;
}

/**
 * Where a plan's accounts may be (locations per plan): none ticked, any server that covers the plan's location codes
 * and is not premium; ticked, only those, each with the squads or groups (Remnawave, PasarGuard), service (Marzneshin)
 * or inbounds (Marzban) its accounts get there, picked from the panel's list or left as the server's own.
 */
export function PlanServersFields({ servers, onChange, fields, disabled }: PlanServersFieldsProps) {
  const { _ } = useLingui();
  const { data: all, loadState } = useAdminResource<AdminServer[]>(loadServers, 0);
  const listed = (id: string) => servers.findIndex((entry) => entry.serverId === id);
  const toggle = (server: AdminServer, checked: boolean) =>
    onChange(checked ? [...servers, { serverId: server.id, serviceId: null }] : servers.filter((entry) => entry.serverId !== server.id));
  const setService = (serverId: string, serviceId: string) =>
    onChange(servers.map((entry) => (entry.serverId === serverId ? { ...entry, serviceId: serviceId.trim() || null } : entry)));
  // A server the plan lists that is gone from the list (deleted meanwhile) is shown so it can be taken off.
  const missing = servers.filter((entry) => all && !all.some((server) => server.id === entry.serverId));

  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{_('admin.planForm.servers')}</legend>
      <p className="text-xs text-slate-500">{_('admin.planForm.serversHint')}</p>
      {loadState === 'loading' && <p className="text-sm text-slate-500">{_('admin.planForm.serversLoading')}</p>}
      {loadState === 'failed' && <p className="text-sm text-red-700">{_('admin.planForm.serversFailed')}</p>}
      {all?.length === 0 && <p className="text-sm text-slate-500">{_('admin.planForm.serversNone')}</p>}
      {all?.map((server) => {
        const index = listed(server.id);
        const entry = servers[index];
        const where = formatLocations(server.locations, _('admin.locations.all'));
        return (
          <div key={server.id} className="space-y-2">
            <CheckboxField
              label={server.premium ? _('admin.planForm.serverPremium', { name: server.name, locations: where }) : `${server.name} (${where})`}
              checked={index >= 0}
              onCheckedChange={(checked) => toggle(server, checked)}
              disabled={disabled}
            />
            {index >= 0 && fields[`servers.${index}.serverId`] && <p className="ps-7 text-sm text-red-700">{fields[`servers.${index}.serverId`]}</p>}
            {entry && (
              <div className="ps-7">
                <ServiceIdField
                  kind={server.kind}
                  multiple={MULTI_SERVICE_KINDS.includes(server.kind)}
                  value={entry.serviceId ?? ''}
                  onChange={(serviceId) => setService(server.id, serviceId)}
                  error={fields[`servers.${index}.serviceId`]}
                  disabled={disabled}
                  loadServices={() => adminApi.servers.listServices(server.id)}
                  optional={{ fallback: server.serviceId }}
                  loadLabel={_('admin.planForm.serversLoad')}
                />
              </div>
            )}
          </div>
        );
      })}
      {fields.servers && <p className="text-sm text-red-700">{fields.servers}</p>}
      {missing.map((entry) => (
        <CheckboxField
          key={entry.serverId}
          label={_('admin.planForm.serverGone', { id: entry.serverId })}
          checked
          onCheckedChange={() => onChange(servers.filter((other) => other.serverId !== entry.serverId))}
          disabled={disabled}
        />
      ))}
    </fieldset>
  );
}
