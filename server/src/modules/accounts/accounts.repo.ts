import type { VpnAccountStatus } from '../../../../shared/accounts.js';
import type { PlanStatus } from '../../../../shared/plans.js';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { publicRegionName } from '../servers/public-region.js';
import { asError, batchPerTurn, whereInJsonArray } from '../../db/batched-read.js';
import { preparedAll, type Row } from '../../db/prepared-read.js';
import { parseJson, toDate, toDateOrNull, toJson } from '../../db/values.js';

export interface AccountRecord {
  id: string;
  userId: string;
  masterServerId: string | null;
  /** While the row waits: the server a panel user is being (or was last) created on, written before the panel is called. */
  provisioningServerId: string | null;
  planId: string | null;
  username: string;
  status: VpnAccountStatus;
  expireDate: Date | null;
  /** 0 = unlimited. */
  dataLimitBytes: number;
  subToken: string;
  subscriptionUrl: string | null;
  usedTrafficBytes: number;
  links: string[];
  usageCheckedAt: Date | null;
  createdAt: Date;
  /** Its server as customers may see it (public region name, never the internal one). */
  server: { name: string; locationNumber: number | null; locations: string } | null;
  planName: string | null;
  /** The plan it was created from, while that plan exists. */
  plan: { id: string; status: PlanStatus; price: number; isTrial: boolean } | null;
  /** A payment for it has succeeded: while it waits, it is being set up, not waiting to be paid (kept on the row by triggers, migration 030). */
  paymentConfirmed: boolean;
  /** How many devices may use it (its plan's, when bought or renewed); null = unlimited. */
  deviceLimit: number | null;
  /** The end of its latest paid period that still counts (the paid-period ledger, kept on the row by triggers: migration 030); null when nothing is paid. */
  paidUntil: Date | null;
  /** Its customer set it to renew itself from their balance before it ends (wallet-renewals.ts). */
  walletAutoRenew: boolean;
}

interface AccountMetadata {
  used_traffic?: number;
  links?: string[];
}

/** A server as customers may see it (public region name, never the internal one), by id. */
export type PublicServerNames = Map<string, NonNullable<AccountRecord['server']>>;

/** A plan as an account shows it (its name, and what decides a renewal), by id. */
export type PlanSummaries = Map<string, { name: string; plan: NonNullable<AccountRecord['plan']> }>;

const ACCOUNT_COLUMNS = [
  'a.id', 'a.user_id', 'a.master_server_id', 'a.provisioning_server_id', 'a.plan_id', 'a.username', 'a.status', 'a.expire_date', 'a.data_limit', 'a.sub_token',
  'a.subscription_url', 'a.metadata', 'a.usage_checked_at', 'a.created_at', 'a.device_limit', 'a.payment_confirmed', 'a.paid_until',
  'a.wallet_auto_renew',
];

const PLAN_COLUMNS = ['p.name as plan_name', 'p.status as plan_status', 'p.price as plan_price', 'p.metadata as plan_metadata'];

const SELECT = [...ACCOUNT_COLUMNS, ...PLAN_COLUMNS, 's.id as server_id', 's.public_name as server_public_name', 's.locations as server_locations'];

/** N of "Location N" for a server without a public name: its place in the order servers were added (as the status page counts). */
const SERVER_NUMBER =
  `(select count(*) from masterservers ms where ms.created_at < s.created_at or (ms.created_at = s.created_at and ms.id <= s.id)) as server_number`;

const toPlan = (id: string, row: Record<string, unknown>, prefix: '' | 'plan_'): NonNullable<AccountRecord['plan']> => ({
  id,
  status: row[`${prefix}status`] as PlanStatus,
  price: Number(row[`${prefix}price`]),
  isTrial: parseJson<{ is_trial?: boolean }>(row[`${prefix}metadata`], {}).is_trial === true,
});

/**
 * `server` and the plan come from the row's own joins, or (for the lighter list) from `catalog` by the
 * account's server and plan ids.
 */
function toRecord(row: Record<string, unknown>, catalog?: { servers: PublicServerNames; plans: PlanSummaries }): AccountRecord {
  const metadata = parseJson<AccountMetadata>(row.metadata, {});
  const summary = catalog && row.plan_id ? catalog.plans.get(row.plan_id as string) : undefined;
  return {
    id: row.id as string,
    userId: row.user_id as string,
    masterServerId: (row.master_server_id as string | null) ?? null,
    provisioningServerId: (row.provisioning_server_id as string | null) ?? null,
    planId: (row.plan_id as string | null) ?? null,
    username: row.username as string,
    status: row.status as VpnAccountStatus,
    expireDate: toDateOrNull(row.expire_date),
    dataLimitBytes: Number(row.data_limit ?? 0),
    subToken: row.sub_token as string,
    subscriptionUrl: (row.subscription_url as string | null) ?? null,
    usedTrafficBytes: Number(metadata.used_traffic ?? 0),
    links: metadata.links ?? [],
    usageCheckedAt: toDateOrNull(row.usage_checked_at),
    createdAt: toDate(row.created_at),
    server: catalog
      ? catalog.servers.get(row.master_server_id as string) ?? null
      : row.server_id
        ? { ...publicRegionName((row.server_public_name as string | null) ?? null, Number(row.server_number)), locations: row.server_locations as string }
        : null,
    planName: catalog ? summary?.name ?? null : (row.plan_name as string | null) ?? null,
    plan: catalog ? summary?.plan ?? null : row.plan_id && row.plan_status ? toPlan(row.plan_id as string, row, 'plan_') : null,
    paymentConfirmed: Boolean(row.payment_confirmed) && row.payment_confirmed !== '0',
    deviceLimit: row.device_limit === null || row.device_limit === undefined ? null : Number(row.device_limit),
    paidUntil: toDateOrNull(row.paid_until),
    walletAutoRenew: Boolean(row.wallet_auto_renew) && row.wallet_auto_renew !== '0',
  };
}

export interface PendingAccount {
  id: string;
  userId: string;
  planId: string | null;
  username: string;
  subToken: string;
  /** Set for a trial: the unique index allows one per user. */
  trialUserId: string | null;
  /** Its plan's device limit; null or left out = unlimited (admin-made accounts). */
  deviceLimit?: number | null;
}

/** A waiting row the sweep may repair or remove (see `listStuck`). */
export interface StuckAccount {
  id: string;
  userId: string;
  username: string;
  provisioningServerId: string | null;
  /** Set for a trial: adopting it marks this user's trial used. */
  trialUserId: string | null;
}

export interface ProvisionedFields {
  masterServerId: string;
  username: string;
  status: VpnAccountStatus;
  subscriptionUrl: string;
  expireDate: Date | null;
  dataLimitBytes: number;
  links: string[];
  usedTrafficBytes: number;
}

/** Still waiting for its panel user: nothing of the panel's answer has been saved. */
const whereWaiting = (query: Knex.QueryBuilder) => query.where('vpn_accounts.status', 'suspended').whereNull('vpn_accounts.subscription_url');

export function createAccountsRepo(db: Db) {
  const base = (conn: Db = db) =>
    conn('vpn_accounts as a').leftJoin('masterservers as s', 's.id', 'a.master_server_id').leftJoin('plans as p', 'p.id', 'a.plan_id').select(SELECT)
      .select(conn.raw(SERVER_NUMBER));

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

  /**
   * The list is read on every dashboard visit: its SQL is built (and on SQLite prepared) once, only the user
   * ids change; it reads the accounts' rows alone (a plan's join was two index lookups per account). The
   * visits of one turn of the event loop are read together (db/batched-read.ts), each user's rows newest first.
   */
  const listRowsOf = preparedAll(db, (userIdsJson: string) =>
    db('vpn_accounts as a').select(ACCOUNT_COLUMNS).whereRaw(whereInJsonArray(db, 'a.user_id'), [userIdsJson])
      // Accounts created in the same millisecond in one order on every visit.
      .orderBy([{ column: 'a.created_at', order: 'desc' }, { column: 'a.id', order: 'desc' }]));
  const listRows = batchPerTurn<string, Row[]>(async (userIds) => {
    const byUser = new Map<string, Row[]>(userIds.map((id) => [id, []]));
    try {
      for (const row of await listRowsOf(JSON.stringify([...byUser.keys()]))) byUser.get(row.user_id as string)?.push(row);
    } catch (err) {
      return userIds.map(() => asError(err));
    }
    return userIds.map((id) => byUser.get(id)!);
  });

  return {
    /**
     * The user's accounts, newest first, in one query on indexed lookups only (the dashboard reads it on every
     * visit): their servers' public names and their plans come from `catalog` (listPublicServerNames and
     * listPlanSummaries, kept by the caller).
     */
    async listForUser(userId: string, catalog: { servers: PublicServerNames; plans: PlanSummaries }): Promise<AccountRecord[]> {
      return (await listRows(userId)).map((row) => toRecord(row, catalog));
    },

    /** Every plan as an account shows it (plans are few). */
    async listPlanSummaries(): Promise<PlanSummaries> {
      const rows = await db('plans').select('id', 'name', 'status', 'price', 'metadata');
      return new Map(rows.map((row: Record<string, unknown>) => [row.id as string, { name: row.name as string, plan: toPlan(row.id as string, row, '') }]));
    },

    /** Every server's name as customers see it, numbered as SERVER_NUMBER counts (servers are few). */
    async listPublicServerNames(): Promise<PublicServerNames> {
      const rows = await db('masterservers').select('id', 'public_name', 'locations').orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return new Map(rows.map((row: Record<string, unknown>, i) => [row.id as string, { ...publicRegionName((row.public_name as string | null) ?? null, i + 1), locations: row.locations as string }]));
    },

    /** The account only if it belongs to `userId`: someone else's is simply not found. */
    async findForUser(id: string, userId: string): Promise<AccountRecord | undefined> {
      const row = await base().where({ 'a.id': id, 'a.user_id': userId }).first();
      return row && toRecord(row);
    },

    async findById(id: string, trx: Db = db): Promise<AccountRecord | undefined> {
      const row = await base(trx).where('a.id', id).first();
      return row && toRecord(row);
    },

    /** Auto-renew from the balance on or off; false when the account is not the user's. */
    async setWalletAutoRenew(id: string, userId: string, enabled: boolean, now: Date): Promise<boolean> {
      return (await db('vpn_accounts').where({ id, user_id: userId }).update({ wallet_auto_renew: enabled, updated_at: now })) > 0;
    },

    /** Active accounts set to renew from the balance whose paid time ends after `from` and by `to`, soonest first. */
    async listWalletRenewalsDue(from: Date, to: Date, limit: number): Promise<AccountRecord[]> {
      const rows = await base().where({ 'a.wallet_auto_renew': true, 'a.status': 'active' })
        .whereRaw('coalesce(a.paid_until, a.expire_date) > ?', [from]).whereRaw('coalesce(a.paid_until, a.expire_date) <= ?', [to])
        .orderByRaw('coalesce(a.paid_until, a.expire_date) asc').limit(limit);
      return rows.map((row) => toRecord(row));
    },

    /** The row that reserves the account while the panel creates it (status `suspended`). */
    async insertPending(account: PendingAccount, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts').insert({
        id: account.id, user_id: account.userId, plan_id: account.planId, username: account.username, status: 'suspended',
        data_limit: 0, sub_token: account.subToken, metadata: toJson({}), trial_user_id: account.trialUserId, device_limit: account.deviceLimit ?? null,
        created_at: now, updated_at: now,
      });
    },

    /** A renewal onto a plan brings that plan's device limit (null = unlimited). */
    async setDeviceLimit(id: string, deviceLimit: number | null, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts').where({ id }).update({ device_limit: deviceLimit, updated_at: now });
    },

    /**
     * Intent before side effect: the server and username about to be created, written before the panel
     * is called (and `updated_at`, which keeps the sweep away). False when the row no longer waits (the
     * sweep removed it, or it was provisioned): then nothing may be created for it.
     */
    async recordIntent(id: string, intent: { serverId: string; username: string }, now: Date): Promise<boolean> {
      const changed = await whereWaiting(db('vpn_accounts').where({ id }))
        .update({ provisioning_server_id: intent.serverId, username: intent.username, updated_at: now });
      return changed > 0;
    },

    /** Saves what the panel created, only into a row that still waits; false when it no longer does. */
    async markProvisioned(id: string, fields: ProvisionedFields, now: Date, trx: Db = db): Promise<boolean> {
      const changed = await whereWaiting(trx('vpn_accounts').where({ id })).update({
        master_server_id: fields.masterServerId, username: fields.username, status: fields.status, subscription_url: fields.subscriptionUrl,
        expire_date: fields.expireDate, data_limit: fields.dataLimitBytes,
        metadata: toJson({ used_traffic: fields.usedTrafficBytes, links: fields.links } satisfies AccountMetadata),
        usage_checked_at: now, updated_at: now,
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
          master_server_id: fields.masterServerId, status: fields.status, subscription_url: fields.subscriptionUrl,
          expire_date: fields.expireDate, data_limit: fields.dataLimitBytes,
          metadata: toJson({ used_traffic: fields.usedTrafficBytes, links: fields.links } satisfies AccountMetadata),
          usage_checked_at: now, updated_at: now,
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

    async updateUsage(id: string, usage: { status: VpnAccountStatus; usedTrafficBytes: number; expireDate: Date | null; dataLimitBytes: number; links: string[] }, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts').where({ id }).update({
        status: usage.status, expire_date: usage.expireDate, data_limit: usage.dataLimitBytes,
        metadata: toJson({ used_traffic: usage.usedTrafficBytes, links: usage.links } satisfies AccountMetadata),
        usage_checked_at: now, updated_at: now,
      });
    },

    async remove(id: string): Promise<void> {
      await db('vpn_accounts').where({ id }).delete();
    },

    /** Removes a row still waiting for its payment; a provisioned account is never touched. */
    async removeIfSuspended(id: string, trx: Db = db): Promise<boolean> {
      return (await trx('vpn_accounts').where({ id, status: 'suspended' }).whereNull('subscription_url').delete()) > 0;
    },

    async insertLog(entry: { accountId: string | null; userId: string | null; step: string; status: 'success' | 'failure'; details: Record<string, unknown>; now: Date }, trx: Db = db): Promise<void> {
      await trx('vpn_account_logs').insert({
        vpn_account_id: entry.accountId, user_id: entry.userId, step: entry.step, status: entry.status, details: toJson(entry.details), created_at: entry.now,
      });
    },

    async listLogs(limit: number) {
      const rows = await db('vpn_account_logs').select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
      return rows.map((row) => ({
        id: Number(row.id),
        step: row.step as string,
        status: row.status === 'success' ? ('success' as const) : ('failure' as const),
        details: parseJson<Record<string, unknown>>(row.details, {}),
        vpnAccountId: (row.vpn_account_id as string | null) ?? null,
        userId: (row.user_id as string | null) ?? null,
        createdAt: toDate(row.created_at).toISOString(),
      }));
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
