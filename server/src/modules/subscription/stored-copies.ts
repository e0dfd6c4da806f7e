/**
 * The database layer behind the in-memory cache of `/sub` (issue 27): what any instance fetched from the
 * panel is kept in `subscription_copies`, so an account fetched once is answered from there at once by
 * every instance, cold or fresh. A copy older than `freshMs` is still served, and refreshed in the
 * background: once at a time per account and format on this instance, and by one instance of the fleet
 * (the one whose conditional update took the claim). At most `maxRefreshes` run at once per instance: in a
 * burst of cold requests the rest are served their stored copy without one (refreshed on a later request),
 * so neither the panel nor the database takes a write per request. The panel is asked before answering
 * only for a copy never fetched (or fetched from another panel URL: the account moved).
 */
import type { SubscriptionAccount } from './subscription.repo.js';
import type { PanelCopy } from './subscription-content.js';
import type { SubscriptionCopiesRepo, StoredCopy } from './subscription-copies.repo.js';
import { toPanelCopy } from './subscription-content.js';
import type { PanelFormat } from './subscription-format.js';

/** One panel answer: what we serve, and the material it was built from (what is stored). */
export interface FetchedCopy {
  copy: PanelCopy;
  text: string;
  userinfo: string | null;
}

export interface StoredCopiesDeps {
  repo: SubscriptionCopiesRepo;
  /** Asks the panel (throws when it is down or answers junk; logs why). */
  fetchCopy(account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<FetchedCopy>;
  now(): Date;
  /** A stored copy younger than this is served without a refresh. */
  freshMs: number;
  /** How long one instance's claim to refresh a copy holds (and, after a failed refresh, how long the fleet waits). */
  leaseMs: number;
  /** Background refreshes running at once on this instance, at most. */
  maxRefreshes: number;
  log: { warn(obj: object, msg: string): void };
  /** A background refresh got a new copy (the memory layer takes it). */
  refreshed(account: SubscriptionAccount, source: PanelFormat, copy: PanelCopy): void;
}

export function createStoredCopies(deps: StoredCopiesDeps) {
  const { repo, log } = deps;
  const refreshing = new Map<string, Promise<void>>();
  const writes = new Set<Promise<unknown>>();

  const track = <T>(promise: Promise<T>): Promise<T> => {
    writes.add(promise);
    void promise.finally(() => writes.delete(promise)).catch(() => {});
    return promise;
  };
  const warn = (err: unknown, accountId: string, msg: string) => log.warn({ accountId, err: err instanceof Error ? err.message : String(err) }, msg);

  async function read(account: SubscriptionAccount, source: PanelFormat): Promise<{ stored: StoredCopy; copy: PanelCopy } | undefined> {
    try {
      // Read with the account's row when it was (subscription.repo.ts), else on its own.
      const stored = account.storedCopy?.source === source ? account.storedCopy.copy : await repo.find(account.id, source);
      if (!stored || stored.subscriptionUrl !== account.subscriptionUrl) return undefined;
      return { stored, copy: toPanelCopy(source, stored.body, stored.userinfo) };
    } catch (err) {
      // The database unreadable, or a copy today's parser refuses: ask the panel as if none were stored.
      warn(err, account.id, 'subscription: could not read the stored configuration');
      return undefined;
    }
  }

  async function save(account: SubscriptionAccount, source: PanelFormat, fetched: FetchedCopy): Promise<void> {
    try {
      await repo.save(account.id, source, { subscriptionUrl: account.subscriptionUrl!, body: fetched.text, userinfo: fetched.userinfo }, deps.now());
    } catch (err) {
      warn(err, account.id, 'subscription: could not store the configuration');
    }
  }

  async function refresh(account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<void> {
    const now = deps.now();
    if (!(await repo.claimRefresh(account.id, source, now, deps.leaseMs, new Date(now.getTime() - deps.freshMs)))) return;
    // A failure keeps the claim until the lease ends: the fleet's back-off (fetchCopy logged why).
    const fetched = await deps.fetchCopy(account, source, userAgent);
    await save(account, source, fetched);
    deps.refreshed(account, source, fetched.copy);
  }

  function refreshInBackground(account: SubscriptionAccount, source: PanelFormat, userAgent: string): void {
    const key = `${account.id}\n${source}`;
    if (refreshing.has(key) || refreshing.size >= deps.maxRefreshes) return;
    const running = refresh(account, source, userAgent)
      .catch(() => {})
      .finally(() => refreshing.delete(key));
    refreshing.set(key, running);
  }

  return {
    /** The copy to serve: the stored one (refreshed in the background when old), else the panel's, stored for next time. */
    async load(account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<PanelCopy> {
      const found = await read(account, source);
      if (found) {
        if (deps.now().getTime() - found.stored.fetchedAt.getTime() >= deps.freshMs) refreshInBackground(account, source, userAgent);
        return found.copy;
      }
      const fetched = await deps.fetchCopy(account, source, userAgent);
      await save(account, source, fetched);
      return fetched.copy;
    },

    /** Forgets an account's stored copies (its next request asks the panel). */
    forget(accountId: string): Promise<void> {
      return track(repo.forgetAccount(accountId).catch((err: unknown) => warn(err, accountId, 'subscription: could not forget the stored configuration')));
    },

    /** Resolves when no refresh or write is in flight. */
    async whenIdle(): Promise<void> {
      while (refreshing.size > 0 || writes.size > 0) await Promise.allSettled([...refreshing.values(), ...writes]);
    },

    get refreshing(): number {
      return refreshing.size;
    },
  };
}

export type StoredCopies = ReturnType<typeof createStoredCopies>;
