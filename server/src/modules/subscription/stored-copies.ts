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
import type { SubscriptionCopiesRepo, StoredCopy } from './subscription-copies.repo.js';
import { servedPanelCopy, toPanelCopy } from './subscription-content.js';
import type { PanelFormat } from './subscription-format.js';
import { newStoredCopiesState, refreshInBackground, save, track, warn, type StoredCopiesState } from './stored-copy-writes.js';

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

/**
 * A stored copy made ready to serve (refreshed in the background when old), or undefined when there is
 * none, it is not the account's current one (the account moved) or it cannot be read.
 */
function ready(
  state: StoredCopiesState,
  account: SubscriptionAccount,
  source: PanelFormat,
  stored: StoredCopy | null | undefined,
  userAgent: string,
): PanelCopy | undefined {
  if (!stored || stored.subscriptionUrl !== account.subscriptionUrl) return undefined;
  let copy: PanelCopy;
  try {
    copy =
      stored.placeholder === null
        ? toPanelCopy(source, stored.body, stored.userinfo)
        : servedPanelCopy(source, stored.body, stored.userinfo, stored.placeholder);
  } catch (err) {
    // A copy today's parser refuses: ask the panel as if none were stored.
    warn(state, err, account.id, 'subscription: could not read the stored configuration');
    return undefined;
  }
  if (state.deps.now().getTime() - stored.fetchedAt.getTime() >= state.deps.freshMs) refreshInBackground(state, account, source, userAgent);
  return copy;
}

async function read(state: StoredCopiesState, account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<PanelCopy | undefined> {
  // Read with the account's row when it was (subscription.repo.ts), else on its own.
  if (account.storedCopy?.source === source) return ready(state, account, source, account.storedCopy.copy, userAgent);
  try {
    return ready(state, account, source, await state.deps.repo.find(account.id, source), userAgent);
  } catch (err) {
    // The database unreadable: ask the panel as if none were stored.
    warn(state, err, account.id, 'subscription: could not read the stored configuration');
    return undefined;
  }
}

/** The copy to serve: the stored one (refreshed in the background when old), else the panel's, stored for next time. */
async function load(state: StoredCopiesState, account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<PanelCopy> {
  const found = await read(state, account, source, userAgent);
  if (found) return found;
  const fetched = await state.deps.fetchCopy(account, source, userAgent);
  await save(state, account, source, fetched, true);
  return fetched.copy;
}

/**
 * The copy read with the account's row, made ready without waiting for anything (a cold request's path),
 * or undefined: none was read with it in `source`, or it is not the account's current one. The row then
 * lets go of it (kept for a few seconds for the next request, it would keep the body twice).
 */
function fromRow(state: StoredCopiesState, account: SubscriptionAccount, source: PanelFormat, userAgent: string): PanelCopy | undefined {
  if (account.storedCopy?.source !== source) return undefined;
  const copy = ready(state, account, source, account.storedCopy.copy, userAgent);
  if (copy) account.storedCopy = undefined;
  return copy;
}

/** Forgets an account's stored copies (its next request asks the panel). */
function forget(state: StoredCopiesState, accountId: string): Promise<void> {
  for (const key of [...state.pendingSaves.keys()]) if (key.startsWith(`${accountId}\n`)) state.pendingSaves.delete(key);
  return track(
    state,
    state.deps.repo.forgetAccount(accountId).catch((err: unknown) => warn(state, err, accountId, 'subscription: could not forget the stored configuration')),
  );
}

/** Resolves when no refresh or write is in flight (a pending batch of saves is written now). */
async function whenIdle(state: StoredCopiesState): Promise<void> {
  while (state.refreshing.size > 0 || state.writes.size > 0) {
    state.claiming?.flushNow();
    state.saving?.flushNow();
    await Promise.allSettled([...state.refreshing.values(), ...state.writes]);
  }
}

/** The stored copies of one instance: the read side is here, saves and background refreshes in stored-copy-writes.ts. */
export function createStoredCopies(deps: StoredCopiesDeps) {
  const state = newStoredCopiesState(deps);
  return {
    /** The copy to serve: the stored one (refreshed in the background when old), else the panel's, stored for next time. */
    load: (account: SubscriptionAccount, source: PanelFormat, userAgent: string): Promise<PanelCopy> => load(state, account, source, userAgent),

    /** The copy read with the account's row, made ready without waiting (a cold request's path), or undefined. */
    fromRow: (account: SubscriptionAccount, source: PanelFormat, userAgent: string): PanelCopy | undefined => fromRow(state, account, source, userAgent),

    /** Forgets an account's stored copies (its next request asks the panel). */
    forget: (accountId: string): Promise<void> => forget(state, accountId),

    /** Resolves when no refresh or write is in flight (a pending batch of saves is written now). */
    whenIdle: (): Promise<void> => whenIdle(state),

    get refreshing(): number {
      return state.refreshing.size;
    },
  };
}

export type StoredCopies = ReturnType<typeof createStoredCopies>;
