import type { AccountsServiceDeps } from './accounts-deps.js';
import type { AccountRecord } from './accounts.repo.js';
import { panelUsage } from './panel-values.js';

/**
 * An account's usage and status as the panel last told them: whether the panel is asked again, until when an
 * answer holds, and asking it (once at a time per account).
 */

/** Usage and status are asked of the panel at most this often per account. */
export const USAGE_CACHE_SECONDS = 60;
const USAGE_TIMEOUT_NOTE = 'panel did not answer; showing the last known values';

/** What the panel said of an account's usage, and when. */
export interface UsageAnswer {
  usage: Pick<AccountRecord, 'status' | 'usedTrafficBytes' | 'expireDate' | 'dataLimitBytes' | 'links'>;
  at: Date;
}

/** A panel call for an account's usage in flight, by account id: concurrent visits of the dashboard share it. */
export type UsageAsked = Map<string, Promise<UsageAnswer | undefined>>;

/** Whether the panel is asked for the account's usage now: its last answer is older than the cache. */
export const needsUsage = (account: AccountRecord, at: number): boolean =>
  account.status !== 'suspended' &&
  account.masterServerId !== null &&
  !(account.usageCheckedAt && at - account.usageCheckedAt.getTime() < USAGE_CACHE_SECONDS * 1000);

/**
 * Until when an account as read holds without a commit: its usage answer going out of date (then the panel is
 * asked again); for ever while it waits for the panel (its status moves by a commit) or has no server.
 */
export const usageFreshUntil = (account: AccountRecord): number =>
  account.status === 'suspended' || account.masterServerId === null ? Infinity : (account.usageCheckedAt?.getTime() ?? 0) + USAGE_CACHE_SECONDS * 1000;

/** Asks the panel for usage and status when the last answer is older than the cache (once at a time per account); stale when it could not. */
export async function refreshUsage(
  deps: AccountsServiceDeps,
  usageAsked: UsageAsked,
  account: AccountRecord,
  at: number,
): Promise<{ account: AccountRecord; stale: boolean }> {
  if (!needsUsage(account, at) || !account.masterServerId) return { account, stale: false };
  let asked = usageAsked.get(account.id);
  if (!asked) {
    asked = askPanelForUsage(deps, account, account.masterServerId).finally(() => usageAsked.delete(account.id));
    usageAsked.set(account.id, asked);
  }
  const answer = await asked;
  return answer ? { account: { ...account, ...answer.usage, usageCheckedAt: answer.at }, stale: false } : { account, stale: true };
}

/** The panel's usage for the account, saved; undefined when the panel could not say. */
async function askPanelForUsage(deps: AccountsServiceDeps, account: AccountRecord, masterServerId: string): Promise<UsageAnswer | undefined> {
  const now = deps.clock();
  const server = await deps.servers.findServerRecord(masterServerId);
  if (!server) return undefined;
  try {
    const panel = await deps.servers.driverFor(server).getAccount(account.username, { withLinks: account.links.length === 0 });
    if (!panel) return undefined;
    const usage = panelUsage(panel, account.links);
    await deps.accounts.updateUsage(account.id, usage, now);
    return { usage, at: now };
  } catch (err) {
    deps.log.warn({ accountId: account.id, err: err instanceof Error ? err.message : err }, USAGE_TIMEOUT_NOTE);
    return undefined;
  }
}
