import { addSeconds, type Clock } from '../../lib/clock.js';
import { PANEL_SYNC, type PanelSync } from './panel-sync.js';
import type { JobHandler } from '../../jobs/worker.js';

export const SYNC_PANEL_ACCOUNTS = 'sync_panel_accounts';

/** One tick of the panel sync (modules/panel-sync), then the next a minute later. */
export function createSyncPanelAccountsHandler(deps: { sync: PanelSync; clock: Clock }): JobHandler {
  return async () => {
    const results = await deps.sync.syncAll();
    const summary = results.map(
      (r) =>
        `${r.server}: ${r.pages} page(s), ${r.updated} updated${r.missing ? `, ${r.missing} gone` : ''}${r.completePass ? '' : ' (pass continues)'}${r.error ? `, error: ${r.error}` : ''}`,
    );
    return { runAgainAt: addSeconds(deps.clock(), PANEL_SYNC.intervalSeconds), note: summary.join('; ') || 'no servers to sync' };
  };
}
