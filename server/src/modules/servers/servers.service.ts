import type { CreateServerBody, ServerConnectionBody, UpdateServerBody } from '../../../../shared/servers.js';
import type { Actor } from '../users/index.js';
import { createPanelUrlCheck } from './panel-address.js';
import { createServer, deleteServer, disableServer, enableServer, listPanelServices, listServers, testServerConnection, updateServer } from './server-admin.js';
import { driverFor, unknownServiceIds } from './server-connections.js';
import type { ServersContext, ServersServiceDeps } from './servers-deps.js';
import type { ServerRecord } from './servers.repo.js';

export { toAdminServer } from './server-admin.js';
export type { ServersServiceDeps } from './servers-deps.js';

/**
 * The panel servers the admin sets up. Each use case is a function of its own (server-admin.ts, with the panel
 * connection and its credential test in server-connections.ts) taking the dependencies first; this binds them.
 */
export function createServersService(deps: ServersServiceDeps) {
  const context: ServersContext = { ...deps, checkPanelUrl: deps.checkPanelUrl ?? createPanelUrlCheck({ allowLinkLocal: false }) };
  return {
    /** A driver for a saved server (used by provisioning too). */
    driverFor: (server: ServerRecord) => driverFor(context, server),
    listServerRecords: async (): Promise<ServerRecord[]> => deps.servers.list(),
    findServerRecord: async (id: string): Promise<ServerRecord | undefined> => deps.servers.findById(id),
    listServers: () => listServers(context),
    /** With a `serviceId`, also checks that this panel admin may assign it. */
    testConnection: (body: ServerConnectionBody) => testServerConnection(context, body),
    createServer: (actor: Actor, body: CreateServerBody) => createServer(context, actor, body),
    updateServer: (actor: Actor, id: string, patch: UpdateServerBody) => updateServer(context, actor, id, patch),
    deleteServer: (actor: Actor, id: string) => deleteServer(context, actor, id),
    /** Enable needs a passing credential test first; it refreshes the token and lastCheck. */
    enableServer: (actor: Actor, id: string) => enableServer(context, actor, id),
    disableServer: (actor: Actor, id: string) => disableServer(context, actor, id),
    listPanelServices: (id: string) => listPanelServices(context, id),
    /**
     * The ids of `serviceId` (squads, groups, services or inbounds, comma-separated) the server's panel does not
     * offer; null when the panel does not answer (nothing could be checked).
     */
    async unknownServices(server: ServerRecord, serviceId: string): Promise<string[] | null> {
      try {
        return unknownServiceIds(await driverFor(context, server).listServices(), serviceId);
      } catch {
        return null;
      }
    },
  };
}

export type ServersService = ReturnType<typeof createServersService>;
