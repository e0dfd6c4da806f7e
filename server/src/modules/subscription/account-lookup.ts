/**
 * Finding the account of a `/sub` token: rows reused for a few seconds when asked for again soon, tokens that
 * matched no row answered for a while without a query, and the rest read in batches per turn of the event loop.
 */
import { asError, batchPerTurn } from '../../db/batched-read.js';
import type { Clock } from '../../lib/clock.js';
import { LruMap } from '../../lib/lru-map.js';
import { RecentlySeen } from '../../lib/recently-seen.js';
import type { PanelFormat } from './subscription-format.js';
import type { SubscriptionAccount, SubscriptionRepo } from './subscription.repo.js';

const UNKNOWN_TOKENS_KEPT = 10_000;
/** An account read from the database is kept in memory when it is asked for again within this long (up to twice as long: lib/recently-seen.ts). */
const ASKED_AGAIN_WITHIN_MS = 30_000;

export interface AccountLookupOptions {
  repo: SubscriptionRepo;
  clock: Clock;
  /** How long an account row is reused before it is read again, ms. */
  accountTtlMs: number;
  /** How long a token found in no row answers 404 without asking the database again, ms. */
  unknownTokenTtlMs: number;
  /** Account rows kept in memory, at most. */
  maxAccounts: number;
}

/** The rows and tokens kept, the lookups under way, and the batched reader. */
interface AccountLookupState {
  options: AccountLookupOptions;
  accounts: LruMap<string, { account: SubscriptionAccount; at: number }>;
  accountLookups: Map<string, Promise<SubscriptionAccount | undefined>>;
  unknownTokens: LruMap<string, number>;
  loadAccount: (key: { token: string; source: PanelFormat }) => Promise<SubscriptionAccount | undefined>;
  readLately: RecentlySeen;
}

// The tokens asked for while this turn of the event loop reads its sockets, looked up in one statement
// per format when it ends (db/batched-read.ts), one lookup at a time: a burst of cold requests (an instance
// restarted, every client at once) then costs a round trip per batch of the requests that came while the
// last one ran, not one per request. One at a time rather than two: the batches are larger, and on PostgreSQL
// they go to one connection (the pool hands out the last one released). At a million users the cold ratio was
// 0.51 against 0.48 with two (medians of 4), and on a table bloated by dead rows 0.43 against 0.36, PostgreSQL
// spending 35–50 µs a request against 50–95 (2026-11-28, docs/performance.md).
const batchedAccountReader = (repo: SubscriptionRepo) =>
  batchPerTurn<{ token: string; source: PanelFormat }, SubscriptionAccount | undefined>(
    async (keys) => {
      const bySource = new Map<PanelFormat, Promise<Map<string, SubscriptionAccount> | Error>>();
      for (const { source } of keys) {
        if (!bySource.has(source))
          bySource.set(
            source,
            repo
              .findByTokens(
                keys.filter((key) => key.source === source).map((key) => key.token),
                source,
              )
              .catch(asError),
          );
      }
      const found = new Map<PanelFormat, Map<string, SubscriptionAccount> | Error>();
      for (const [source, lookup] of bySource) found.set(source, await lookup);
      return keys.map(({ token, source }) => {
        const accounts = found.get(source)!;
        return accounts instanceof Error ? accounts : accounts.get(token);
      });
    },
    { maxInFlight: 1 },
  );

/**
 * The account by its token, read (when not reused) with its stored configuration in `source`, and whether
 * memory keeps it (then its configuration is kept too).
 */
async function findAccount(
  state: AccountLookupState,
  token: string,
  source: PanelFormat,
  now: number,
): Promise<{ account: SubscriptionAccount; kept: boolean } | undefined> {
  const { options, accounts, accountLookups, unknownTokens } = state;
  const cached = accounts.get(token);
  if (cached && now - cached.at < options.accountTtlMs) return { account: cached.account, kept: true };
  const missedAt = unknownTokens.peek(token);
  if (missedAt !== undefined && now - missedAt < options.unknownTokenTtlMs) return undefined;
  let lookup = accountLookups.get(token);
  if (!lookup) {
    lookup = state.loadAccount({ token, source }).finally(() => accountLookups.delete(token));
    accountLookups.set(token, lookup);
  }
  let account: SubscriptionAccount | undefined;
  try {
    account = await lookup;
  } catch (err) {
    // The database is unreachable: a row kept from moments ago is better than failing the client.
    if (cached) return { account: cached.account, kept: true };
    throw err;
  }
  if (!account) {
    accounts.delete(token);
    unknownTokens.set(token, options.clock().getTime());
    return undefined;
  }
  if (missedAt !== undefined) unknownTokens.delete(token);
  const at = options.clock().getTime();
  const kept = state.readLately.seenBefore(token, at) || cached !== undefined;
  if (kept) accounts.set(token, { account, at });
  return { account, kept };
}

/** Forgets the rows of an account kept under any token. */
function forgetAccount(state: AccountLookupState, accountId: string): void {
  for (const token of [...state.accounts.keys()]) if (state.accounts.peek(token)?.account.id === accountId) state.accounts.delete(token);
}

export function createAccountLookup(options: AccountLookupOptions) {
  const state: AccountLookupState = {
    options,
    // Account rows by token, reused for a few seconds: the hot path then needs no database round trip.
    accounts: new LruMap(options.maxAccounts),
    accountLookups: new Map(),
    // Tokens that matched no row, and when: guessed or stale links then cost no query each (bounded, so a
    // flood of new guesses only evicts older ones; the per-IP limit caps how fast they come).
    unknownTokens: new LruMap(UNKNOWN_TOKENS_KEPT),
    loadAccount: batchedAccountReader(options.repo),
    // The tokens of accounts read lately. Memory keeps an account (its row, its configuration) only when it is
    // asked for again soon (within half a minute surely, after a minute never): clients fetch every few hours,
    // so nearly every request is the only one of its account for hours, and keeping each for nothing made the
    // collector copy and mark every one of them (cold `/sub`: 90 against 74 µs of CPU a request,
    // docs/performance.md). The tokens themselves are not kept either (a filter of bits, lib/recently-seen.ts).
    readLately: new RecentlySeen(ASKED_AGAIN_WITHIN_MS),
  };
  return {
    find: (token: string, source: PanelFormat, now: number) => findAccount(state, token, source, now),
    forget: (accountId: string) => forgetAccount(state, accountId),
    /** Rows kept, and tokens known to match none (for stats). */
    get size(): number {
      return state.accounts.size;
    },
    get unknownTokens(): number {
      return state.unknownTokens.size;
    },
  };
}

export type AccountLookup = ReturnType<typeof createAccountLookup>;
