import { dialectOf, type Db } from '../../db/knex.js';
import { toBool, toDate } from '../../db/values.js';
import { preparedFirst } from '../../db/prepared-read.js';
import { LruMap } from '../../lib/lru-map.js';
import { PANEL_SOURCE, type PanelFormat } from './subscription-format.js';

/** The panel's answer for one account and format: the bodies we serve are made from it. */
export interface StoredCopy {
  /** The panel's subscription URL it was fetched from (a moved account's old copy is not its copy). */
  subscriptionUrl: string;
  /** The body in its served form (subscription-content.ts's parsePanelAnswer), or, when `placeholder` is null, as the panel sent it. */
  body: string;
  /** The panel's `subscription-userinfo` header, as sent. */
  userinfo: string | null;
  fetchedAt: Date;
  /** Whether it is the panel's inactive-user placeholder; null for a copy stored before migration 036 (its body as it came). */
  placeholder: boolean | null;
}

/** One copy to store. */
export interface CopyToSave {
  accountId: string;
  source: PanelFormat;
  copy: StoredCopy;
}

/** Refresh claims of one process: a SQLite database has no other (its own state per copy, kept while it matters). */
interface LocalClaim {
  /** When a copy was last saved here (ms). */
  fetchedAt?: number;
  /** When a refresh claimed it (ms); cleared by the save. */
  refreshingSince?: number;
}
const LOCAL_CLAIMS_KEPT = 100_000;
/** Per database, shared by every service over it in this process (tests run several "instances" in one). */
const claimsByDb = new WeakMap<Db, LruMap<string, LocalClaim>>();

/** The `subscription_copies` table (migration 027), shared by every instance. */
export function createSubscriptionCopiesRepo(db: Db) {
  const copyOf = preparedFirst(db, (accountId: string, source: string) =>
    db('subscription_copies').select('subscription_url', 'body', 'userinfo', 'fetched_at', 'placeholder').where({ vpn_account_id: accountId, source }).first(),
  );
  // SQLite is one process (architecture.md, "Scale"): its claims need no write, whose fsync would block the event loop.
  // Decided at the first use: the database is open by then.
  let localChosen: { claims: LruMap<string, LocalClaim> | undefined } | undefined;
  const localClaims = () => (localChosen ??= { claims: dialectOf(db) === 'sqlite' ? localClaimsOf(db) : undefined }).claims;

  return {
    async find(accountId: string, source: PanelFormat): Promise<StoredCopy | undefined> {
      const row = await copyOf(accountId, source);
      if (!row) return undefined;
      return toStoredCopy(row.subscription_url, row.body, row.userinfo, row.fetched_at, row.placeholder);
    },

    /** Stores fresh copies in one statement (replacing the last ones) and releases any refresh claim on them. */
    async saveMany(copies: CopyToSave[]): Promise<void> {
      if (copies.length === 0) return;
      await db('subscription_copies')
        .insert(
          copies.map(({ accountId, source, copy }) => ({
            vpn_account_id: accountId,
            source,
            subscription_url: copy.subscriptionUrl,
            body: copy.body,
            userinfo: copy.userinfo,
            fetched_at: copy.fetchedAt,
            placeholder: copy.placeholder,
            refreshing_since: null,
          })),
        )
        .onConflict(['vpn_account_id', 'source'])
        .merge();
      const local = localClaims();
      for (const { accountId, source, copy } of copies) local?.set(claimKey(accountId, source), { fetchedAt: copy.fetchedAt.getTime() });
    },

    /**
     * Takes the right to refresh these copies of `source` while they are older than `staleBefore`: the ids
     * claimed, each by exactly one caller until the copy is saved again or `leaseMs` passes (a failed refresh
     * leaves the claim, so the fleet waits that long before the next try). A copy saved meanwhile is not claimed.
     * PostgreSQL: one conditional update for the batch; SQLite: this process's claims, no write.
     */
    async claimRefreshes(source: PanelFormat, accountIds: string[], now: Date, leaseMs: number, staleBefore: Date): Promise<Set<string>> {
      if (accountIds.length === 0) return new Set();
      const local = localClaims();
      if (local) {
        const claimed = new Set<string>();
        for (const accountId of accountIds) {
          const key = claimKey(accountId, source);
          const claim = local.peek(key);
          if (claim?.fetchedAt !== undefined && claim.fetchedAt > staleBefore.getTime()) continue;
          if (claim?.refreshingSince !== undefined && claim.refreshingSince > now.getTime() - leaseMs) continue;
          local.set(key, { ...claim, refreshingSince: now.getTime() });
          claimed.add(accountId);
        }
        return claimed;
      }
      const rows: Array<{ vpn_account_id: string }> = await db('subscription_copies')
        .whereIn('vpn_account_id', accountIds)
        .andWhere({ source })
        .andWhere('fetched_at', '<=', staleBefore)
        .andWhere((q) => q.whereNull('refreshing_since').orWhere('refreshing_since', '<=', new Date(now.getTime() - leaseMs)))
        .update({ refreshing_since: now }, ['vpn_account_id']);
      return new Set(rows.map((row) => row.vpn_account_id));
    },

    /** A claimed refresh failed: the claim holds until its lease ends (on SQLite the row says so too, as on PostgreSQL). */
    async refreshFailed(accountId: string, source: PanelFormat, claimedAt: Date): Promise<void> {
      if (localClaims()) await db('subscription_copies').where({ vpn_account_id: accountId, source }).update({ refreshing_since: claimedAt });
    },

    /** Forgets an account's copies (it was renewed, disabled or moved: its next fetch asks the panel). */
    async forgetAccount(accountId: string): Promise<void> {
      await db('subscription_copies').where({ vpn_account_id: accountId }).delete();
      const local = localClaims();
      if (local) for (const source of new Set(Object.values(PANEL_SOURCE))) local.delete(claimKey(accountId, source));
    },
  };
}

/** A stored copy from its row's values (this table's, or those read with an account: subscription.repo.ts). */
export function toStoredCopy(subscriptionUrl: unknown, body: unknown, userinfo: unknown, fetchedAt: unknown, placeholder: unknown): StoredCopy {
  return {
    subscriptionUrl: subscriptionUrl as string,
    body: body as string,
    userinfo: (userinfo as string | null) ?? null,
    fetchedAt: toDate(fetchedAt),
    placeholder: placeholder === null || placeholder === undefined ? null : toBool(placeholder),
  };
}

const claimKey = (accountId: string, source: string) => `${accountId}\n${source}`;

function localClaimsOf(db: Db): LruMap<string, LocalClaim> {
  let claims = claimsByDb.get(db);
  if (!claims) claimsByDb.set(db, (claims = new LruMap(LOCAL_CLAIMS_KEPT)));
  return claims;
}

export type SubscriptionCopiesRepo = ReturnType<typeof createSubscriptionCopiesRepo>;
