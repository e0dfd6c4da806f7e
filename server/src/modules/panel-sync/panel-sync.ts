import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { PanelAccount, PanelDriver } from '../../panels/panel-driver.js';
import type { AccountsRepo } from '../accounts/accounts.repo.js';
import type { BillingNotices } from '../billing/billing-notices.js';
import type { ServerRecord } from '../servers/servers.repo.js';
import type { PanelSyncRepo, PanelValues, SyncedAccount } from './panel-sync.repo.js';
import { DAY_MS } from '../../../../shared/constants.js';

/**
 * Per server and tick (once a minute): at most `pagesPerTick` list calls of `pageSize` users, then, at
 * the end of a complete pass, at most `lookupsPerPass` single-user reads. So a server with up to
 * pagesPerTick × pageSize users is read whole every minute.
 */
export const PANEL_SYNC = { intervalSeconds: 60, pageSize: 100, pagesPerTick: 20, lookupsPerPass: 50, serverConcurrency: 2 } as const;

/** Data-usage e-mails go out when an account's use crosses these shares of its limit. */
const USAGE_THRESHOLDS = [80, 100] as const;
/** A plan that does not renew (free, or made by an admin) is announced this long before it ends. */
const ENDING_NOTICE_MS = 3 * DAY_MS;

export interface SyncOptions {
  pageSize: number;
  pagesPerTick: number;
  lookupsPerPass: number;
}

export interface ServerSyncResult {
  server: string;
  pages: number;
  updated: number;
  /** Accounts whose panel user is gone (found at the end of a complete pass). */
  missing: number;
  completePass: boolean;
  error: string | null;
}

const valuesOf = (panel: PanelAccount): PanelValues => ({
  status: panel.status,
  expireDate: panel.expiresAt,
  dataLimitBytes: panel.dataLimitBytes ?? 0,
  usedTrafficBytes: panel.usedTrafficBytes,
});

const sameValues = (account: SyncedAccount, values: PanelValues): boolean =>
  account.status === values.status &&
  account.dataLimitBytes === values.dataLimitBytes &&
  account.usedTrafficBytes === values.usedTrafficBytes &&
  (account.expireDate?.getTime() ?? null) === (values.expireDate?.getTime() ?? null);

/** What the overview's traffic has counted of an account (whole bytes): until the sync first writes it, the usage we hold. */
const countedTraffic = (account: SyncedAccount): number => account.trafficCountedBytes ?? Math.round(account.usedTrafficBytes);

/** Bytes used since they were last counted; after a reset on the panel (usage went down), all the panel now shows. */
const trafficSinceCounted = (account: SyncedAccount, usedBytes: number): number => {
  const used = Math.round(usedBytes);
  const counted = countedTraffic(account);
  return used >= counted ? used - counted : used;
};

/**
 * Accounts kept in step with their panels: usage, limit, expiry and status are read in pages from each
 * enabled server that is not down, so the dashboard and `/sub` are at most a pass behind the panel
 * whatever the traffic. An account of ours missing from a complete pass is read by name (a page can
 * shift while users are added or removed); only when the panel has no such user is it marked disabled.
 * A panel error ends that server's tick; the next tick goes on from the page it stopped at.
 */
export function createPanelSync(deps: {
  db: Db;
  repo: PanelSyncRepo;
  accounts: AccountsRepo;
  listServers(): Promise<ServerRecord[]>;
  driverFor(server: ServerRecord): PanelDriver;
  notices: BillingNotices;
  /** An account's status changed: cached `/sub` answers for it go. */
  accountChanged(accountId: string): void;
  clock: Clock;
  log: FastifyBaseLogger;
  options?: Partial<SyncOptions>;
}) {
  const { repo, clock } = deps;
  const options: SyncOptions = { ...PANEL_SYNC, ...deps.options };

  /** Queues the 80 % / 100 % e-mails this change crosses into, once per period (limit and expiry). */
  async function usageNotices(account: SyncedAccount, values: PanelValues, trx: Db): Promise<void> {
    if (values.dataLimitBytes <= 0) return;
    const period = `${values.expireDate?.toISOString() ?? 'never'}:${values.dataLimitBytes}`;
    for (const percent of USAGE_THRESHOLDS) {
      const line = (values.dataLimitBytes * percent) / 100;
      const before = account.dataLimitBytes === values.dataLimitBytes ? account.usedTrafficBytes : 0;
      if (values.usedTrafficBytes >= line && before < line) {
        await deps.notices.notify({ kind: 'data_usage', accountId: account.id, percent }, `${account.id}:${percent}:${period}`, trx);
      }
    }
  }

  /**
   * 3 days before a free or admin-made account ends, once per expiry: when this pass is the first to see
   * it inside the last 3 days. Bought accounts have the renewal reminders (the same notice and key, so
   * never twice); trials are too short to warn.
   */
  async function endingNotice(account: SyncedAccount, values: PanelValues, now: Date): Promise<void> {
    const end = values.expireDate;
    if (!end || account.trial || account.billed || values.status !== 'active') return;
    const line = end.getTime() - ENDING_NOTICE_MS;
    const seenBefore = account.panelSeenAt?.getTime() ?? account.createdAt.getTime();
    if (account.createdAt.getTime() < line && seenBefore < line && line <= now.getTime() && now < end) {
      await deps.notices.notify({ kind: 'plan_ending', accountId: account.id, endsAt: end.toISOString() }, `${account.id}:${end.toISOString()}`);
    }
  }

  /** Writes the panel's values when they differ from ours (or from what traffic has counted), adding the new traffic to the server's day. */
  async function apply(serverId: string, account: SyncedAccount, values: PanelValues): Promise<boolean> {
    await endingNotice(account, values, clock());
    if (sameValues(account, values) && countedTraffic(account) === Math.round(values.usedTrafficBytes)) return false;
    const now = clock();
    await deps.db.transaction(async (trx) => {
      const applied = await repo.applyPanelValues(account, values, now, trx);
      const traffic = trafficSinceCounted(account, values.usedTrafficBytes);
      if (applied && traffic > 0) await repo.addTraffic(serverId, traffic, now, trx);
      await usageNotices(account, values, trx);
    });
    if (account.status !== values.status) deps.accountChanged(account.id);
    return true;
  }

  /** Applies one page of panel users to ours; returns how many of ours changed. */
  async function applyPage(server: ServerRecord, page: PanelAccount[]): Promise<number> {
    const byName = new Map(page.map((panel) => [panel.username.toLowerCase(), panel]));
    const ours = await repo.findOurs(server.id, [...byName.keys()]);
    let updated = 0;
    const unchanged: SyncedAccount[] = [];
    for (const account of ours) {
      const panel = byName.get(account.username.toLowerCase())!;
      if (await apply(server.id, account, valuesOf(panel))) updated += 1;
      else unchanged.push(account);
    }
    await repo.markSeen(unchanged.map((account) => account.id), clock());
    await repo.startCountingTraffic(unchanged.filter((account) => account.trafficCountedBytes === null));
    return updated;
  }

  /** The end of a complete pass: ours not seen in it are read by name; gone on the panel → disabled here. */
  async function reconcileUnseen(server: ServerRecord, driver: PanelDriver, passStartedAt: Date): Promise<{ updated: number; missing: number }> {
    let updated = 0;
    let missing = 0;
    for (const account of await repo.listUnseen(server.id, passStartedAt, options.lookupsPerPass)) {
      const panel = await driver.getAccount(account.username);
      if (panel) {
        if (await apply(server.id, account, valuesOf(panel))) updated += 1;
        else await repo.markSeen([account.id], clock());
        continue;
      }
      missing += 1;
      await apply(server.id, account, { ...account, status: 'disabled' });
      await deps.accounts.insertLog({
        accountId: account.id, userId: account.userId, step: 'panel_user_missing', status: 'failure',
        details: { serverId: server.id, username: account.username }, now: clock(),
      });
    }
    return { updated, missing };
  }

  async function syncServer(server: ServerRecord): Promise<ServerSyncResult> {
    const driver = deps.driverFor(server);
    const state = await repo.getState(server.id);
    let page = state.nextPage;
    const passStartedAt = page === 1 || !state.passStartedAt ? clock() : state.passStartedAt;
    const result: ServerSyncResult = { server: server.name, pages: 0, updated: 0, missing: 0, completePass: false, error: null };
    try {
      while (result.pages < options.pagesPerTick) {
        const { accounts, total } = await driver.listAccounts({ page, size: options.pageSize });
        result.pages += 1;
        result.updated += await applyPage(server, accounts);
        const done = accounts.length < options.pageSize || page * options.pageSize >= total;
        page += 1;
        if (done) {
          result.completePass = true;
          break;
        }
        await repo.saveState(server.id, { nextPage: page, passStartedAt, lastCompletePassAt: state.lastCompletePassAt }, clock());
      }
      if (result.completePass) {
        const reconciled = await reconcileUnseen(server, driver, passStartedAt);
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

  return {
    /** One tick over every enabled server that is not down. */
    async syncAll(): Promise<ServerSyncResult[]> {
      const servers = (await deps.listServers()).filter((server) => server.status === 'active' && server.health.state !== 'down');
      const limit = pLimit(PANEL_SYNC.serverConcurrency);
      return Promise.all(servers.map((server) => limit(() => syncServer(server))));
    },
  };
}

export type PanelSync = ReturnType<typeof createPanelSync>;
