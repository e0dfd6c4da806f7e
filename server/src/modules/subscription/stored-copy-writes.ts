/**
 * The write side of the stored copies of `/sub` (stored-copies.ts): copies saved in batches, and background
 * refreshes claimed together and run within the instance's limit. Each function takes the instance's state
 * first; nothing here writes on the request path.
 */
import type { SubscriptionAccount } from './subscription.repo.js';
import type { CopyToSave } from './subscription-copies.repo.js';
import type { PanelFormat } from './subscription-format.js';
import type { FetchedCopy, StoredCopiesDeps } from './stored-copies.js';

/** A refresh asked for and waiting to be claimed; `claimed` hands it the refresh that runs (none when another instance has it). */
interface DueRefresh {
  account: SubscriptionAccount;
  source: PanelFormat;
  userAgent: string;
  claimed(run?: Promise<void>): void;
}

/** What one instance's stored copies keep between calls: refreshes running, writes in flight, saves and claims waiting. */
export interface StoredCopiesState {
  deps: StoredCopiesDeps;
  refreshing: Map<string, Promise<void>>;
  writes: Set<Promise<unknown>>;
  // Copies waiting to be saved together (the last one per account and format), and when they will be.
  pendingSaves: Map<string, CopyToSave>;
  saving: { done: Promise<void>; flushNow(): void } | undefined;
  // Refreshes asked for within claimDelayMs, claimed together after it (whenIdle claims them at once).
  claiming: { flushNow(): void } | undefined;
  dueRefreshes: DueRefresh[];
}

/** A batch of saves this large is written at once (one statement of bounded size). */
const MAX_SAVES_AT_ONCE = 100;

export const newStoredCopiesState = (deps: StoredCopiesDeps): StoredCopiesState => ({
  deps,
  refreshing: new Map(),
  writes: new Set(),
  pendingSaves: new Map(),
  saving: undefined,
  claiming: undefined,
  dueRefreshes: [],
});

export function track<T>(state: StoredCopiesState, promise: Promise<T>): Promise<T> {
  state.writes.add(promise);
  void promise.finally(() => state.writes.delete(promise)).catch(() => {});
  return promise;
}

export const warn = (state: StoredCopiesState, err: unknown, accountId: string, msg: string) =>
  state.deps.log.warn({ accountId, err: err instanceof Error ? err.message : String(err) }, msg);

export const keyOf = (accountId: string, source: PanelFormat) => `${accountId}\n${source}`;

function writeSaves(state: StoredCopiesState): Promise<void> {
  const batch = [...state.pendingSaves.values()];
  state.pendingSaves = new Map();
  state.saving = undefined;
  return state.deps.repo.saveMany(batch).catch((err: unknown) => {
    for (const { accountId } of batch) warn(state, err, accountId, 'subscription: could not store the configuration');
  });
}

/** Stores the copy with the others fetched within `saveDelayMs`; `now` writes the batch at once (a request waits for it). */
export function save(state: StoredCopiesState, account: SubscriptionAccount, source: PanelFormat, fetched: FetchedCopy, now: boolean): Promise<void> {
  const { deps } = state;
  state.pendingSaves.set(keyOf(account.id, source), {
    accountId: account.id,
    source,
    copy: {
      subscriptionUrl: account.subscriptionUrl!,
      body: fetched.served,
      userinfo: fetched.userinfo,
      fetchedAt: deps.now(),
      placeholder: fetched.copy.placeholder,
    },
  });
  if (!state.saving) {
    let flushNow = () => {};
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deps.saveDelayMs);
      flushNow = () => {
        clearTimeout(timer);
        resolve();
      };
    }).then(() => writeSaves(state));
    state.saving = { done: track(state, done), flushNow };
  }
  if (now || state.pendingSaves.size >= MAX_SAVES_AT_ONCE) state.saving.flushNow();
  return state.saving.done;
}

async function refresh(state: StoredCopiesState, account: SubscriptionAccount, source: PanelFormat, userAgent: string, claimedAt: Date): Promise<void> {
  const { deps } = state;
  let fetched: FetchedCopy;
  try {
    fetched = await deps.fetchCopy(account, source, userAgent);
  } catch {
    // The claim holds until the lease ends: the fleet's back-off (fetchCopy logged why).
    await deps.repo
      .refreshFailed(account.id, source, claimedAt)
      .catch((err: unknown) => warn(state, err, account.id, 'subscription: could not hold the refresh back'));
    return;
  }
  deps.refreshed(account, source, fetched.copy);
  // Written with the batch (tracked): the slot is free for the next refresh at once.
  void save(state, account, source, fetched, false);
}

function scheduleClaim(state: StoredCopiesState): void {
  const run = () => {
    state.claiming = undefined;
    void claimDue(state);
  };
  const timer = setTimeout(run, state.deps.claimDelayMs);
  state.claiming = {
    flushNow() {
      clearTimeout(timer);
      run();
    },
  };
}

async function claimDue(state: StoredCopiesState): Promise<void> {
  const { deps } = state;
  const due = state.dueRefreshes;
  state.dueRefreshes = [];
  const now = deps.now();
  const staleBefore = new Date(now.getTime() - deps.freshMs);
  for (const source of new Set(due.map((one) => one.source))) {
    const ofSource = due.filter((one) => one.source === source);
    let claimed = new Set<string>();
    try {
      claimed = await deps.repo.claimRefreshes(
        source,
        ofSource.map((one) => one.account.id),
        now,
        deps.leaseMs,
        staleBefore,
      );
    } catch (err) {
      warn(state, err, ofSource[0]!.account.id, 'subscription: could not claim the refreshes of stored configurations');
    }
    for (const one of ofSource) one.claimed(claimed.has(one.account.id) ? refresh(state, one.account, one.source, one.userAgent, now) : undefined);
  }
}

export function refreshInBackground(state: StoredCopiesState, account: SubscriptionAccount, source: PanelFormat, userAgent: string): void {
  const key = keyOf(account.id, source);
  if (state.refreshing.has(key) || state.refreshing.size >= state.deps.maxRefreshes) return;
  if (!state.claiming) scheduleClaim(state);
  // The slot is taken from now: the claim and the panel request count as one refresh.
  const running = new Promise<void>((claimed) => state.dueRefreshes.push({ account, source, userAgent, claimed }))
    .catch(() => {})
    .finally(() => state.refreshing.delete(key));
  state.refreshing.set(key, running);
}
