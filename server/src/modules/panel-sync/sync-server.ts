import type { PanelDriver } from '../../panels/panel-driver.js';
import type { ServerRecord } from '../servers/index.js';
import type { PanelSyncDeps, ServerSyncResult, SyncOptions } from './panel-sync-deps.js';
import { panelValues } from '../accounts/index.js';
import { applyPage, applyPanelValues } from './panel-values.js';

/**
 * One server's tick of the panel sync: pages of panel users from where the last tick stopped, and at the end of
 * a complete pass, ours it did not see read by name (gone on the panel → disabled here).
 */

/** The end of a complete pass: ours not seen in it are read by name; gone on the panel → disabled here. */
async function reconcileUnseen(
  deps: PanelSyncDeps,
  options: SyncOptions,
  server: ServerRecord,
  driver: PanelDriver,
  passStartedAt: Date,
): Promise<{ updated: number; missing: number }> {
  const { repo, clock } = deps;
  let updated = 0;
  let missing = 0;
  for (const account of await repo.listUnseen(server.id, passStartedAt, options.lookupsPerPass)) {
    const panel = await driver.getAccount(account.username);
    if (panel) {
      if (await applyPanelValues(deps, server.id, account, panelValues(panel))) updated += 1;
      else await repo.markSeen([account.id], clock());
      continue;
    }
    missing += 1;
    await applyPanelValues(deps, server.id, account, { ...account, status: 'disabled' });
    await deps.accounts.insertLog({
      accountId: account.id,
      userId: account.userId,
      step: 'panel_user_missing',
      status: 'failure',
      details: { serverId: server.id, username: account.username },
      now: clock(),
    });
  }
  return { updated, missing };
}

export async function syncServer(deps: PanelSyncDeps, options: SyncOptions, server: ServerRecord): Promise<ServerSyncResult> {
  const { repo, clock } = deps;
  const driver = deps.driverFor(server);
  const state = await repo.getState(server.id);
  let page = state.nextPage;
  const passStartedAt = page === 1 || !state.passStartedAt ? clock() : state.passStartedAt;
  const result: ServerSyncResult = { server: server.name, pages: 0, updated: 0, missing: 0, completePass: false, error: null };
  try {
    while (result.pages < options.pagesPerTick) {
      const { accounts, total } = await driver.listAccounts({ page, size: options.pageSize });
      result.pages += 1;
      result.updated += await applyPage(deps, server, accounts);
      const done = accounts.length < options.pageSize || page * options.pageSize >= total;
      page += 1;
      if (done) {
        result.completePass = true;
        break;
      }
      await repo.saveState(server.id, { nextPage: page, passStartedAt, lastCompletePassAt: state.lastCompletePassAt }, clock());
    }
    if (result.completePass) {
      const reconciled = await reconcileUnseen(deps, options, server, driver, passStartedAt);
      result.updated += reconciled.updated;
      result.missing = reconciled.missing;
      await repo.saveState(server.id, { nextPage: 1, passStartedAt: null, lastCompletePassAt: clock() }, clock());
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    deps.log.warn({ serverId: server.id, err: result.error }, 'panel sync: the panel did not answer; continuing next tick');
  }
  return result;
}
