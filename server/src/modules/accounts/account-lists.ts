import type { VpnAccount } from '../../../../shared/accounts.js';
import { KeptJson } from '../../lib/kept-json.js';
import { keptUntilCommit } from '../../lib/kept-until-commit.js';
import { versionedRead } from '../../lib/versioned-read.js';
import { serializeAccountList } from './account-response.js';
import { needsUsage, refreshUsage, usageFreshUntil, type UsageAsked } from './account-usage.js';
import type { AccountsServiceDeps } from './accounts-deps.js';
import type { AccountRecord, PlanSummaries, PublicServerNames } from './accounts.repo.js';
import { shownSettings, toVpnAccount } from './vpn-account.js';

/**
 * A customer's list of accounts: the dashboard's (usage asked of the panel when out of date, the answer kept
 * until a commit) and the admin's (as last synced).
 */

/** Customers whose list of accounts is kept at once (the ones asking most recently). */
const LISTS_KEPT = 1000;

/** What the lists keep between visits. */
interface ListReads {
  /** Servers are few and rarely change: their public names are kept, not joined into every account list. */
  serverNames: () => Promise<PublicServerNames>;
  /** Plans too: an account's plan comes from here, not from a join per account. */
  planSummaries: () => Promise<PlanSummaries>;
  usageAsked: UsageAsked;
}

async function listOwn(deps: AccountsServiceDeps, reads: ListReads, userId: string): Promise<AccountRecord[]> {
  const { accounts } = deps;
  const [servers, plans] = await Promise.all([reads.serverNames(), reads.planSummaries()]);
  const own = await accounts.listForUser(userId, { servers, plans });
  const unheardOf = (account: AccountRecord) =>
    (account.masterServerId && !servers.has(account.masterServerId)) || (account.planId && !plans.has(account.planId));
  if (!own.some(unheardOf)) return own;
  // A server or plan added on another instance that this one has not heard of yet: it is read now, not left out.
  const [freshServers, freshPlans] = await Promise.all([accounts.listPublicServerNames(), accounts.listPlanSummaries()]);
  return accounts.listForUser(userId, { servers: freshServers, plans: freshPlans });
}

/** The user's accounts as the dashboard shows them, and until when that answer holds if nothing is committed. */
async function readOwnList(deps: AccountsServiceDeps, reads: ListReads, userId: string): Promise<{ json: KeptJson; expiresAt: number }> {
  const [own, shown] = await Promise.all([listOwn(deps, reads, userId), shownSettings(deps)]);
  const at = deps.clock().getTime();
  const answer = (list: VpnAccount[], expiresAt: number) => ({ json: new KeptJson(serializeAccountList(list)), expiresAt });
  // Most visits find every account's usage fresh: those answer without a promise per account.
  if (!own.some((account) => needsUsage(account, at)))
    return answer(
      own.map((account) => toVpnAccount(account, shown)),
      Math.min(...own.map(usageFreshUntil)),
    );
  // A usage answer saved is a commit (the next visit reads again); one the panel could not give is asked again next visit.
  const refreshed = await Promise.all(own.map((account) => refreshUsage(deps, reads.usageAsked, account, at)));
  return answer(
    refreshed.map(({ account, stale }) => toVpnAccount(account, shown, stale)),
    refreshed.some(({ stale }) => stale) ? 0 : Math.min(...refreshed.map(({ account }) => usageFreshUntil(account))),
  );
}

/** The lists' reads of servers and plans, and the usage calls in flight, kept for the service's lifetime. */
export function createAccountLists(deps: AccountsServiceDeps) {
  const { accounts, clock } = deps;
  const reads: ListReads = {
    serverNames: versionedRead(() => accounts.listPublicServerNames(), { version: deps.serversVersion ?? (() => 0), now: () => clock().getTime() }),
    planSummaries: versionedRead(() => accounts.listPlanSummaries(), { version: deps.plansVersion ?? (() => 0), now: () => clock().getTime() }),
    usageAsked: new Map(),
  };
  // Kept per user until a commit (of this instance or another: an account claimed, paid, synced, a setting or plan
  // changed) or until an account's usage is due to be asked again: a dashboard asked again meanwhile is sent as it was.
  // The servers' and plans' versions are in the key: a list read before this instance heard of another's change to
  // them (its names come from those kept reads) is not sent once it has.
  const keptList = deps.commitToken
    ? keptUntilCommit(deps.commitToken, (key: string) => readOwnList(deps, reads, key.slice(0, key.indexOf('\n'))), {
        maxKeys: LISTS_KEPT,
        expiresAt: (kept) => kept.expiresAt,
        now: () => clock().getTime(),
      })
    : undefined;

  return {
    /** The user's accounts, newest first, as the JSON of a VpnAccount[] (usage asked of the panel when out of date). */
    async listAccountsJson(userId: string): Promise<KeptJson> {
      if (!keptList) return (await readOwnList(deps, reads, userId)).json;
      return (await keptList(`${userId}\n${deps.serversVersion?.() ?? 0}\n${deps.plansVersion?.() ?? 0}`)).json;
    },

    /** A user's accounts as last synced (no panel call): the admin's user page. */
    async listStoredAccounts(userId: string): Promise<VpnAccount[]> {
      const [own, shown] = await Promise.all([listOwn(deps, reads, userId), shownSettings(deps)]);
      return own.map((account) => toVpnAccount(account, shown));
    },
  };
}

/** One of the caller's accounts as the API shows it (no panel call); someone else's is undefined. */
export async function findAccount(deps: AccountsServiceDeps, userId: string, id: string): Promise<VpnAccount | undefined> {
  const account = await deps.accounts.findForUser(id, userId);
  return account && toVpnAccount(account, await shownSettings(deps));
}
