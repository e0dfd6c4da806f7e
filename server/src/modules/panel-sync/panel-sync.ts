import pLimit from 'p-limit';
import type { PanelSyncDeps, ServerSyncResult, SyncOptions } from './panel-sync-deps.js';
import { syncServer } from './sync-server.js';

export type { ServerSyncResult, SyncOptions } from './panel-sync-deps.js';

/**
 * Per server and tick (once a minute): at most `pagesPerTick` list calls of `pageSize` users, then, at
 * the end of a complete pass, at most `lookupsPerPass` single-user reads. So a server with up to
 * pagesPerTick × pageSize users is read whole every minute.
 */
export const PANEL_SYNC = { intervalSeconds: 60, pageSize: 100, pagesPerTick: 20, lookupsPerPass: 50, serverConcurrency: 2 } as const;

/**
 * Accounts kept in step with their panels: usage, limit, expiry and status are read in pages from each
 * enabled server that is not down, so the dashboard and `/sub` are at most a pass behind the panel
 * whatever the traffic. An account of ours missing from a complete pass is read by name (a page can
 * shift while users are added or removed); only when the panel has no such user is it marked disabled.
 * A panel error ends that server's tick; the next tick goes on from the page it stopped at. A server's
 * tick is in sync-server.ts, applying a panel user's values in panel-values.ts.
 */
export function createPanelSync(deps: PanelSyncDeps) {
  const options: SyncOptions = { ...PANEL_SYNC, ...deps.options };

  return {
    /** One tick over every enabled server that is not down. */
    async syncAll(): Promise<ServerSyncResult[]> {
      const servers = (await deps.listServers()).filter((server) => server.status === 'active' && server.health.state !== 'down');
      const limit = pLimit(PANEL_SYNC.serverConcurrency);
      return Promise.all(servers.map((server) => limit(() => syncServer(deps, options, server))));
    },
  };
}

export type PanelSync = ReturnType<typeof createPanelSync>;
