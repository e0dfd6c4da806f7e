import type { Db } from '../../db/knex.js';
import type { PanelAccount } from '../../panels/panel-driver.js';
import type { ServerRecord } from '../servers/index.js';
import { panelValues, type PanelValues } from '../accounts/index.js';
import type { SyncedAccount } from './panel-sync.repo.js';
import type { PanelSyncDeps } from './panel-sync-deps.js';
import { DAY_MS } from '../../../../shared/constants.js';

/**
 * A panel user's values applied to our account: written when they differ (with the traffic since last counted
 * added to the server's day), and the data-usage and plan-ending e-mails the change calls for.
 */

/** Data-usage e-mails go out when an account's use crosses these shares of its limit. */
const USAGE_THRESHOLDS = [80, 100] as const;
/** A plan that does not renew (free, or made by an admin) is announced this long before it ends. */
const ENDING_NOTICE_MS = 3 * DAY_MS;

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

/** Queues the 80 % / 100 % e-mails this change crosses into, once per period (limit and expiry). */
async function usageNotices(deps: PanelSyncDeps, account: SyncedAccount, values: PanelValues, trx: Db): Promise<void> {
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
async function endingNotice(deps: PanelSyncDeps, account: SyncedAccount, values: PanelValues, now: Date): Promise<void> {
  const end = values.expireDate;
  if (!end || account.trial || account.billed || values.status !== 'active') return;
  const line = end.getTime() - ENDING_NOTICE_MS;
  const seenBefore = account.panelSeenAt?.getTime() ?? account.createdAt.getTime();
  if (account.createdAt.getTime() < line && seenBefore < line && line <= now.getTime() && now < end) {
    await deps.notices.notify({ kind: 'plan_ending', accountId: account.id, endsAt: end.toISOString() }, `${account.id}:${end.toISOString()}`);
  }
}

/** Writes the panel's values when they differ from ours (or from what traffic has counted), adding the new traffic to the server's day. */
export async function applyPanelValues(deps: PanelSyncDeps, serverId: string, account: SyncedAccount, values: PanelValues): Promise<boolean> {
  const { repo, clock } = deps;
  await endingNotice(deps, account, values, clock());
  if (sameValues(account, values) && countedTraffic(account) === Math.round(values.usedTrafficBytes)) return false;
  const now = clock();
  await deps.db.transaction(async (trx) => {
    const applied = await repo.applyPanelValues(account, values, now, trx);
    const traffic = trafficSinceCounted(account, values.usedTrafficBytes);
    if (applied && traffic > 0) await repo.addTraffic(serverId, traffic, now, trx);
    await usageNotices(deps, account, values, trx);
  });
  if (account.status !== values.status) deps.accountChanged(account.id);
  return true;
}

/** Applies one page of panel users to ours; returns how many of ours changed. */
export async function applyPage(deps: PanelSyncDeps, server: ServerRecord, page: PanelAccount[]): Promise<number> {
  const { repo, clock } = deps;
  const byName = new Map(page.map((panel) => [panel.username.toLowerCase(), panel]));
  const ours = await repo.findOurs(server.id, [...byName.keys()]);
  let updated = 0;
  const unchanged: SyncedAccount[] = [];
  for (const account of ours) {
    const panel = byName.get(account.username.toLowerCase())!;
    if (await applyPanelValues(deps, server.id, account, panelValues(panel))) updated += 1;
    else unchanged.push(account);
  }
  await repo.markSeen(
    unchanged.map((account) => account.id),
    clock(),
  );
  await repo.startCountingTraffic(unchanged.filter((account) => account.trafficCountedBytes === null));
  return updated;
}
