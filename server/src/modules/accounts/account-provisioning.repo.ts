import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { toJson } from '../../db/values.js';
import type { PendingAccount, ProvisionedFields, StuckAccount } from './accounts.repo.js';
import { usageColumns } from './panel-values.js';

/**
 * The rows of accounts being made: reserved while the panel creates the user, its intent recorded before each
 * panel call, the panel's answer saved; and the sweep's view of rows left waiting (adopted or removed).
 */

/** Still waiting for its panel user: nothing of the panel's answer has been saved. */
const whereWaiting = (query: Knex.QueryBuilder) => query.where('vpn_accounts.status', 'suspended').whereNull('vpn_accounts.subscription_url');

/**
 * A waiting row that nobody is working on any more: untouched since `cutoff` (a request records its
 * intent before every panel call, so a live one keeps it fresh), and no payment waits on it or is being
 * delivered into it (any subscription naming it with a transaction neither failed nor cancelled, or none yet).
 * Paid rows are the provisioning job's: it retries until the panel answers.
 */
const whereStuck = (query: Knex.QueryBuilder, cutoff: Date, conn: Db) =>
  whereWaiting(query)
    .where('vpn_accounts.updated_at', '<', cutoff)
    .whereNotExists(
      conn('subscriptions as sub')
        .leftJoin('transactions as tx', 'tx.subscription_id', 'sub.id')
        .whereRaw('?? = ??', ['sub.vpn_account_id', 'vpn_accounts.id'])
        .where((paid) => paid.whereNull('tx.id').orWhereNotIn('tx.status', ['failed', 'cancelled']))
        .select(conn.raw('1')),
    );

/** The accounts repository's rows of accounts being made (createAccountsRepo spreads them in). */
export function provisioningRows(db: Db) {
  return {
    /** The row that reserves the account while the panel creates it (status `suspended`). */
    async insertPending(account: PendingAccount, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts').insert({
        id: account.id,
        user_id: account.userId,
        plan_id: account.planId,
        username: account.username,
        status: 'suspended',
        data_limit: 0,
        sub_token: account.subToken,
        metadata: toJson({}),
        trial_user_id: account.trialUserId,
        device_limit: account.deviceLimit ?? null,
        created_at: now,
        updated_at: now,
      });
    },

    /**
     * Intent before side effect: the server and username about to be created, written before the panel
     * is called (and `updated_at`, which keeps the sweep away). False when the row no longer waits (the
     * sweep removed it, or it was provisioned): then nothing may be created for it.
     */
    async recordIntent(id: string, intent: { serverId: string; username: string }, now: Date): Promise<boolean> {
      const changed = await whereWaiting(db('vpn_accounts').where({ id })).update({
        provisioning_server_id: intent.serverId,
        username: intent.username,
        updated_at: now,
      });
      return changed > 0;
    },

    /** Saves what the panel created, only into a row that still waits; false when it no longer does. */
    async markProvisioned(id: string, fields: ProvisionedFields, now: Date, trx: Db = db): Promise<boolean> {
      const changed = await whereWaiting(trx('vpn_accounts').where({ id })).update({
        master_server_id: fields.masterServerId,
        username: fields.username,
        subscription_url: fields.subscriptionUrl,
        ...usageColumns(fields),
        usage_checked_at: now,
        updated_at: now,
      });
      return changed > 0;
    },

    /** Waiting rows untouched since `cutoff` that no payment is about (see `whereStuck`), oldest first. */
    async listStuck(cutoff: Date, limit: number): Promise<StuckAccount[]> {
      const rows = await whereStuck(db('vpn_accounts'), cutoff, db)
        .select('id', 'user_id', 'username', 'provisioning_server_id', 'trial_user_id')
        .orderBy([{ column: 'updated_at' }, { column: 'id' }])
        .limit(limit);
      return rows.map((row: Record<string, unknown>) => ({
        id: row.id as string,
        userId: row.user_id as string,
        username: row.username as string,
        provisioningServerId: (row.provisioning_server_id as string | null) ?? null,
        trialUserId: (row.trial_user_id as string | null) ?? null,
      }));
    },

    /**
     * Saves the panel user the sweep found for a stuck row, if the row is still stuck with the same
     * intent (a request that came back to life since wins); a trial's user gets `trial_used`, together.
     */
    async adoptStuck(account: StuckAccount, fields: ProvisionedFields, cutoff: Date, now: Date, trx: Db): Promise<boolean> {
      const changed = await whereStuck(trx('vpn_accounts'), cutoff, trx)
        .where({ id: account.id, provisioning_server_id: fields.masterServerId, username: fields.username })
        .update({
          master_server_id: fields.masterServerId,
          subscription_url: fields.subscriptionUrl,
          ...usageColumns(fields),
          usage_checked_at: now,
          updated_at: now,
        });
      if (changed > 0 && account.trialUserId) await trx('user_profiles').where({ id: account.trialUserId }).update({ trial_used: true, updated_at: now });
      return changed > 0;
    },

    /** Deletes a stuck row (which gives a trial back: its claim goes with it), if it is still stuck with the same intent. */
    async removeStuck(account: StuckAccount, cutoff: Date, trx: Db): Promise<boolean> {
      const query = whereStuck(trx('vpn_accounts'), cutoff, trx).where({ id: account.id, username: account.username });
      if (account.provisioningServerId) query.where({ provisioning_server_id: account.provisioningServerId });
      else query.whereNull('provisioning_server_id');
      return (await query.delete()) > 0;
    },

    /** Removes a row still waiting for its payment; a provisioned account is never touched. */
    async removeIfSuspended(id: string, trx: Db = db): Promise<boolean> {
      return (await trx('vpn_accounts').where({ id, status: 'suspended' }).whereNull('subscription_url').delete()) > 0;
    },
  };
}
