/**
 * The database layer behind the in-memory cache of `/sub` (issue 27): what any instance fetched from the
 * panel is kept in `subscription_copies`, so an account fetched once is answered from there at once by
 * every instance, cold or fresh. A copy older than `freshMs` is still served, and refreshed in the
 * background: once at a time per account and format on this instance, and by one instance of the fleet
 * (the one whose conditional update took the claim). At most `maxRefreshes` run at once per instance: in a
 * burst of cold requests the rest are served their stored copy without one (refreshed on a later request),
 * so neither the panel nor the database takes a write per request. The panel is asked before answering
 * only for a copy never fetched (or fetched from another panel URL: the account moved).
 *
 * The request path writes nothing: the refreshes due within `claimDelayMs` are claimed together (one
 * statement on PostgreSQL, none on SQLite), and copies fetched within `saveDelayMs` are saved in one
 * statement: on SQLite every commit's fsync blocks the event loop, so each one costs every request waiting.
 * A refresh holds its slot from the request that asked for it, so in a burst of stale requests (a restarted
 * instance, every client at once) at most `maxRefreshes` are claimed per `claimDelayMs`: the panel requests
 * and their parsing do not take the time of the requests being answered.
 */
import type { SubscriptionAccount } from './subscription.repo.js';
import type { PanelCopy } from './subscription-content.js';
import type { CopyToSave, SubscriptionCopiesRepo, StoredCopy } from './subscription-copies.repo.js';
import { servedPanelCopy, toPanelCopy } from './subscription-content.js';
import type { PanelFormat } from './subscription-format.js';

/** One panel answer: what we serve, and what is stored of it (its served form and usage header). */
export interface FetchedCopy {
  copy: PanelCopy;
  served: string;
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
  /** How long a refresh asked for waits to be claimed with the others asked for meanwhile (one claim for all), ms. */
  claimDelayMs: number;
  /** How long a refreshed copy waits to be saved with the others fetched meanwhile (one write for all), ms. */
  saveDelayMs: number;
  log: { warn(obj: object, msg: string): void };
  /** A background refresh got a new copy (the memory layer takes it). */
  refreshed(account: SubscriptionAccount, source: PanelFormat, copy: PanelCopy): void;
}

/** A batch of saves this large is written at once (one statement of bounded size). */
const MAX_SAVES_AT_ONCE = 100;

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
  const keyOf = (accountId: string, source: PanelFormat) => `${accountId}\n${source}`;

  /**
   * A stored copy made ready to serve (refreshed in the background when old), or undefined when there is
   * none, it is not the account's current one (the account moved) or it cannot be read.
   */
  function ready(account: SubscriptionAccount, source: PanelFormat, stored: StoredCopy | null | undefined, userAgent: string): PanelCopy | undefined {
    if (!stored || stored.subscriptionUrl !== account.subscriptionUrl) return undefined;
    let copy: PanelCopy;
    try {
      copy = stored.placeholder === null ? toPanelCopy(source, stored.body, stored.userinfo) : servedPanelCopy(source, stored.body, stored.userinfo, stored.placeholder);
    } catch (err) {
      // A copy today's parser refuses: ask the panel as if none were stored.
      warn(err, account.id, 'subscription: could not read the stored configuration');
      return undefined;
    }
    if (deps.now().getTime() - stored.fetchedAt.getTime() >= deps.freshMs) refreshInBackground(account, source, userAgent);
    return copy;
  }

  async function read(account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<PanelCopy | undefined> {
    // Read with the account's row when it was (subscription.repo.ts), else on its own.
    if (account.storedCopy?.source === source) return ready(account, source, account.storedCopy.copy, userAgent);
    try {
      return ready(account, source, await repo.find(account.id, source), userAgent);
    } catch (err) {
      // The database unreadable: ask the panel as if none were stored.
      warn(err, account.id, 'subscription: could not read the stored configuration');
      return undefined;
    }
  }

  // Copies waiting to be saved together (the last one per account and format), and when they will be.
  let pendingSaves = new Map<string, CopyToSave>();
  let saving: { done: Promise<void>; flushNow(): void } | undefined;

  function writeSaves(): Promise<void> {
    const batch = [...pendingSaves.values()];
    pendingSaves = new Map();
    saving = undefined;
    return repo.saveMany(batch).catch((err: unknown) => {
      for (const { accountId } of batch) warn(err, accountId, 'subscription: could not store the configuration');
    });
  }

  /** Stores the copy with the others fetched within `saveDelayMs`; `now` writes the batch at once (a request waits for it). */
  function save(account: SubscriptionAccount, source: PanelFormat, fetched: FetchedCopy, now: boolean): Promise<void> {
    pendingSaves.set(keyOf(account.id, source), {
      accountId: account.id,
      source,
      copy: { subscriptionUrl: account.subscriptionUrl!, body: fetched.served, userinfo: fetched.userinfo, fetchedAt: deps.now(), placeholder: fetched.copy.placeholder },
    });
    if (!saving) {
      let flushNow = () => {};
      const done = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deps.saveDelayMs);
        flushNow = () => {
          clearTimeout(timer);
          resolve();
        };
      }).then(writeSaves);
      saving = { done: track(done), flushNow };
    }
    if (now || pendingSaves.size >= MAX_SAVES_AT_ONCE) saving.flushNow();
    return saving.done;
  }

  async function refresh(account: SubscriptionAccount, source: PanelFormat, userAgent: string, claimedAt: Date): Promise<void> {
    let fetched: FetchedCopy;
    try {
      fetched = await deps.fetchCopy(account, source, userAgent);
    } catch {
      // The claim holds until the lease ends: the fleet's back-off (fetchCopy logged why).
      await repo.refreshFailed(account.id, source, claimedAt).catch((err: unknown) => warn(err, account.id, 'subscription: could not hold the refresh back'));
      return;
    }
    deps.refreshed(account, source, fetched.copy);
    // Written with the batch (tracked): the slot is free for the next refresh at once.
    void save(account, source, fetched, false);
  }

  // Refreshes asked for within claimDelayMs, claimed together after it (whenIdle claims them at once).
  let claiming: { flushNow(): void } | undefined;
  let dueRefreshes: Array<{ account: SubscriptionAccount; source: PanelFormat; userAgent: string; claimed(run?: Promise<void>): void }> = [];

  function scheduleClaim(): void {
    const run = () => {
      claiming = undefined;
      void claimDue();
    };
    const timer = setTimeout(run, deps.claimDelayMs);
    claiming = {
      flushNow() {
        clearTimeout(timer);
        run();
      },
    };
  }

  async function claimDue(): Promise<void> {
    const due = dueRefreshes;
    dueRefreshes = [];
    const now = deps.now();
    const staleBefore = new Date(now.getTime() - deps.freshMs);
    for (const source of new Set(due.map((one) => one.source))) {
      const ofSource = due.filter((one) => one.source === source);
      let claimed = new Set<string>();
      try {
        claimed = await repo.claimRefreshes(source, ofSource.map((one) => one.account.id), now, deps.leaseMs, staleBefore);
      } catch (err) {
        warn(err, ofSource[0]!.account.id, 'subscription: could not claim the refreshes of stored configurations');
      }
      for (const one of ofSource) one.claimed(claimed.has(one.account.id) ? refresh(one.account, one.source, one.userAgent, now) : undefined);
    }
  }

  function refreshInBackground(account: SubscriptionAccount, source: PanelFormat, userAgent: string): void {
    const key = keyOf(account.id, source);
    if (refreshing.has(key) || refreshing.size >= deps.maxRefreshes) return;
    if (!claiming) scheduleClaim();
    // The slot is taken from now: the claim and the panel request count as one refresh.
    const running = new Promise<void>((claimed) => dueRefreshes.push({ account, source, userAgent, claimed }))
      .catch(() => {})
      .finally(() => refreshing.delete(key));
    refreshing.set(key, running);
  }

  return {
    /** The copy to serve: the stored one (refreshed in the background when old), else the panel's, stored for next time. */
    async load(account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<PanelCopy> {
      const found = await read(account, source, userAgent);
      if (found) return found;
      const fetched = await deps.fetchCopy(account, source, userAgent);
      await save(account, source, fetched, true);
      return fetched.copy;
    },

    /**
     * The copy read with the account's row, made ready without waiting for anything (a cold request's path),
     * or undefined: none was read with it in `source`, or it is not the account's current one. The row then
     * lets go of it (kept for a few seconds for the next request, it would keep the body twice).
     */
    fromRow(account: SubscriptionAccount, source: PanelFormat, userAgent: string): PanelCopy | undefined {
      if (account.storedCopy?.source !== source) return undefined;
      const copy = ready(account, source, account.storedCopy.copy, userAgent);
      if (copy) account.storedCopy = undefined;
      return copy;
    },

    /** Forgets an account's stored copies (its next request asks the panel). */
    forget(accountId: string): Promise<void> {
      for (const key of [...pendingSaves.keys()]) if (key.startsWith(`${accountId}\n`)) pendingSaves.delete(key);
      return track(repo.forgetAccount(accountId).catch((err: unknown) => warn(err, accountId, 'subscription: could not forget the stored configuration')));
    },

    /** Resolves when no refresh or write is in flight (a pending batch of saves is written now). */
    async whenIdle(): Promise<void> {
      while (refreshing.size > 0 || writes.size > 0) {
        claiming?.flushNow();
        saving?.flushNow();
        await Promise.allSettled([...refreshing.values(), ...writes]);
      }
    },

    get refreshing(): number {
      return refreshing.size;
    },
  };
}

export type StoredCopies = ReturnType<typeof createStoredCopies>;
