import type { Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';
import { preparedRead } from './prepared-read.js';
import type { PanelFormat } from './subscription-format.js';

/** The panel's answer for one account and format, as it came: the bodies we serve are built from it. */
export interface StoredCopy {
  /** The panel's subscription URL it was fetched from (a moved account's old copy is not its copy). */
  subscriptionUrl: string;
  body: string;
  /** The panel's `subscription-userinfo` header, as sent. */
  userinfo: string | null;
  fetchedAt: Date;
}

/** The `subscription_copies` table (migration 027), shared by every instance. */
export function createSubscriptionCopiesRepo(db: Db) {
  const copyOf = preparedRead(db, (accountId: string, source: string) =>
    db('subscription_copies').select('subscription_url', 'body', 'userinfo', 'fetched_at').where({ vpn_account_id: accountId, source }).first());
  return {
    async find(accountId: string, source: PanelFormat): Promise<StoredCopy | undefined> {
      const row = await copyOf(accountId, source);
      if (!row) return undefined;
      return { subscriptionUrl: row.subscription_url as string, body: row.body as string, userinfo: (row.userinfo as string | null) ?? null, fetchedAt: toDate(row.fetched_at) };
    },

    /** Stores a fresh copy (replacing the last one) and releases any refresh claim on it. */
    async save(accountId: string, source: PanelFormat, copy: Omit<StoredCopy, 'fetchedAt'>, now: Date): Promise<void> {
      await db('subscription_copies')
        .insert({ vpn_account_id: accountId, source, subscription_url: copy.subscriptionUrl, body: copy.body, userinfo: copy.userinfo, fetched_at: now, refreshing_since: null })
        .onConflict(['vpn_account_id', 'source'])
        .merge();
    },

    /**
     * Takes the right to refresh this copy while it is older than `staleBefore`: true for exactly one caller
     * until the copy is saved again or `leaseMs` passes (a failed refresh leaves the claim, so the fleet waits
     * that long before the next try). A copy another instance refreshed meanwhile is not claimed.
     */
    async claimRefresh(accountId: string, source: PanelFormat, now: Date, leaseMs: number, staleBefore: Date): Promise<boolean> {
      const claimed = await db('subscription_copies')
        .where({ vpn_account_id: accountId, source })
        .andWhere('fetched_at', '<=', staleBefore)
        .andWhere((q) => q.whereNull('refreshing_since').orWhere('refreshing_since', '<=', new Date(now.getTime() - leaseMs)))
        .update({ refreshing_since: now });
      return claimed === 1;
    },

    /** Forgets an account's copies (it was renewed, disabled or moved: its next fetch asks the panel). */
    async forgetAccount(accountId: string): Promise<void> {
      await db('subscription_copies').where({ vpn_account_id: accountId }).delete();
    },
  };
}

export type SubscriptionCopiesRepo = ReturnType<typeof createSubscriptionCopiesRepo>;
