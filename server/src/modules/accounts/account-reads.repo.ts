import { deviceLimitWithExtras } from '../../../../shared/devices.js';
import type { PlanStatus } from '../../../../shared/plans.js';
import { planNamesOf } from '../../../../shared/plan-translations.js';
import type { VpnAccountStatus } from '../../../../shared/accounts.js';
import type { Db } from '../../db/knex.js';
import { asError, batchPerTurn, whereInJsonArray } from '../../db/batched-read.js';
import { preparedAll, type Row } from '../../db/prepared-read.js';
import { parseJson, toDate, toDateOrNull } from '../../db/values.js';
import { readPlanTranslations } from '../plans/index.js';
import { publicRegionName, regionTranslationsOf } from '../servers/index.js';
import type { RegionNameTranslations } from '../../../../shared/region-names.js';
import type { AccountMetadata, AccountRecord, PlanSummaries, PublicServerNames } from './accounts.repo.js';

/**
 * How accounts are read: the dashboard's list (one batched query per turn of the event loop), one account with its
 * server's and plan's joins, the catalog of servers' public names and plans the list takes them from, and the
 * accounts due to renew from the balance.
 */

const ACCOUNT_COLUMNS = [
  'a.id',
  'a.user_id',
  'a.master_server_id',
  'a.provisioning_server_id',
  'a.plan_id',
  'a.username',
  'a.status',
  'a.expire_date',
  'a.data_limit',
  'a.sub_token',
  'a.subscription_url',
  'a.metadata',
  'a.usage_checked_at',
  'a.created_at',
  'a.device_limit',
  'a.extra_devices',
  'a.payment_confirmed',
  'a.paid_until',
  'a.wallet_auto_renew',
  'a.next_plan_id',
  'a.next_plan_at',
];

const PLAN_COLUMNS = [
  'p.name as plan_name',
  'p.status as plan_status',
  'p.price as plan_price',
  'p.metadata as plan_metadata',
  'p.grace_days as plan_grace_days',
  'p.translations as plan_translations',
];

const SELECT = [...ACCOUNT_COLUMNS, ...PLAN_COLUMNS, 's.id as server_id', 's.public_name as server_public_name', 's.locations as server_locations'];

/** N of "Location N" for a server without a public name: its place in the order servers were added (as the status page counts). */
const SERVER_NUMBER = `(select count(*) from masterservers ms where ms.created_at < s.created_at or (ms.created_at = s.created_at and ms.id <= s.id)) as server_number`;

const toPlan = (id: string, row: Record<string, unknown>, prefix: '' | 'plan_'): NonNullable<AccountRecord['plan']> => ({
  id,
  status: row[`${prefix}status`] as PlanStatus,
  price: Number(row[`${prefix}price`]),
  isTrial: parseJson<{ is_trial?: boolean }>(row[`${prefix}metadata`], {}).is_trial === true,
  graceDays: Number(row[`${prefix}grace_days`] ?? 0),
  names: planNamesOf(readPlanTranslations(row[`${prefix}translations`])),
});

/**
 * `server` and the plan come from the row's own joins, or (for the lighter list) from `catalog` by the
 * account's server and plan ids.
 */
function toRecord(
  row: Record<string, unknown>,
  catalog?: { servers: PublicServerNames; plans: PlanSummaries },
  translations?: Map<string, RegionNameTranslations>,
): AccountRecord {
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
      ? (catalog.servers.get(row.master_server_id as string) ?? null)
      : row.server_id
        ? {
            ...publicRegionName((row.server_public_name as string | null) ?? null, Number(row.server_number), translations?.get(row.server_id as string)),
            locations: row.server_locations as string,
          }
        : null,
    planName: catalog ? (summary?.name ?? null) : ((row.plan_name as string | null) ?? null),
    plan: catalog ? (summary?.plan ?? null) : row.plan_id && row.plan_status ? toPlan(row.plan_id as string, row, 'plan_') : null,
    paymentConfirmed: Boolean(row.payment_confirmed) && row.payment_confirmed !== '0',
    deviceLimit: deviceLimitWithExtras(row.device_limit, row.extra_devices),
    extraDevices: Number(row.extra_devices ?? 0) || 0,
    paidUntil: toDateOrNull(row.paid_until),
    walletAutoRenew: Boolean(row.wallet_auto_renew) && row.wallet_auto_renew !== '0',
    nextPlan: row.next_plan_id && row.next_plan_at ? { planId: row.next_plan_id as string, at: toDate(row.next_plan_at) } : null,
  };
}

/** The translated region names of a row's server (none without a server). */
const translationsOf = async (conn: Db, row: Record<string, unknown>) =>
  row.server_id ? regionTranslationsOf(conn, [row.server_id as string]) : new Map<string, RegionNameTranslations>();

/** The accounts repository's reads (createAccountsRepo spreads them in). */
export function accountReads(db: Db) {
  const base = (conn: Db = db) =>
    conn('vpn_accounts as a')
      .leftJoin('masterservers as s', 's.id', 'a.master_server_id')
      .leftJoin('plans as p', 'p.id', 'a.plan_id')
      .select(SELECT)
      .select(conn.raw(SERVER_NUMBER));

  /**
   * The list is read on every dashboard visit: its SQL is built (and on SQLite prepared) once, only the user
   * ids change; it reads the accounts' rows alone (a plan's join was two index lookups per account). The
   * visits of one turn of the event loop are read together (db/batched-read.ts), each user's rows newest first.
   */
  const listRowsOf = preparedAll(db, (userIdsJson: string) =>
    db('vpn_accounts as a')
      .select(ACCOUNT_COLUMNS)
      .whereRaw(whereInJsonArray(db, 'a.user_id'), [userIdsJson])
      // Accounts created in the same millisecond in one order on every visit.
      .orderBy([
        { column: 'a.created_at', order: 'desc' },
        { column: 'a.id', order: 'desc' },
      ]),
  );
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
      const rows = await db('plans').select('id', 'name', 'status', 'price', 'metadata', 'grace_days', 'translations');
      return new Map(rows.map((row: Record<string, unknown>) => [row.id as string, { name: row.name as string, plan: toPlan(row.id as string, row, '') }]));
    },

    /** Every server's name as customers see it, numbered as SERVER_NUMBER counts (servers are few). */
    async listPublicServerNames(): Promise<PublicServerNames> {
      const [rows, translations] = await Promise.all([
        db('masterservers')
          .select('id', 'public_name', 'locations')
          .orderBy([{ column: 'created_at' }, { column: 'id' }]),
        regionTranslationsOf(db),
      ]);
      return new Map(
        rows.map((row: Record<string, unknown>, i) => [
          row.id as string,
          { ...publicRegionName((row.public_name as string | null) ?? null, i + 1, translations.get(row.id as string)), locations: row.locations as string },
        ]),
      );
    },

    /** The account only if it belongs to `userId`: someone else's is simply not found. */
    async findForUser(id: string, userId: string): Promise<AccountRecord | undefined> {
      const row = await base().where({ 'a.id': id, 'a.user_id': userId }).first();
      return row && toRecord(row, undefined, await translationsOf(db, row));
    },

    async findById(id: string, trx: Db = db): Promise<AccountRecord | undefined> {
      const row = await base(trx).where('a.id', id).first();
      return row && toRecord(row, undefined, await translationsOf(trx, row));
    },

    /** Active accounts set to renew from the balance whose paid time ends after `from` and by `to`, soonest first. */
    async listWalletRenewalsDue(from: Date, to: Date, limit: number): Promise<AccountRecord[]> {
      const rows = await base()
        .where({ 'a.wallet_auto_renew': true, 'a.status': 'active' })
        .whereRaw('coalesce(a.paid_until, a.expire_date) > ?', [from])
        .whereRaw('coalesce(a.paid_until, a.expire_date) <= ?', [to])
        .orderByRaw('coalesce(a.paid_until, a.expire_date) asc')
        .limit(limit);
      return rows.map((row) => toRecord(row));
    },
  };
}
