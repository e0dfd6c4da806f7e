import type { VpnAccountStatus } from '../../../../shared/accounts.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toDate, toDateOrNull } from '../../db/values.js';
import { addToDailyStat, DAILY_METRICS, utcDay } from '../overview/index.js';
import { usageColumns, type PanelValues } from '../accounts/index.js';

/** Where a server's pass through the panel's user list has got to. */
export interface SyncState {
  /** The next page to read; 1 = a new pass starts. */
  nextPage: number;
  passStartedAt: Date | null;
  lastCompletePassAt: Date | null;
}

/** What the sync compares with the panel: one of our accounts on the server. */
export interface SyncedAccount {
  id: string;
  userId: string;
  username: string;
  status: VpnAccountStatus;
  expireDate: Date | null;
  /** 0 = unlimited. */
  dataLimitBytes: number;
  usedTrafficBytes: number;
  /** The used traffic the overview's daily traffic has counted up to; null until the sync first sees the account. */
  trafficCountedBytes: number | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  /** When a pass last saw it (before this one). */
  panelSeenAt: Date | null;
  /** A trial, or bought (one-off or renewing): these have their own reminders, or none. */
  trial: boolean;
  billed: boolean;
}

const COLUMNS = [
  'id',
  'user_id',
  'username',
  'status',
  'expire_date',
  'data_limit',
  'metadata',
  'created_at',
  'panel_seen_at',
  'trial_user_id',
  'traffic_counted',
];
const BILLED = 'exists (select 1 from subscriptions bs where bs.vpn_account_id = vpn_accounts.id) as billed';

function toSynced(row: Record<string, unknown>): SyncedAccount {
  const metadata = parseJson<Record<string, unknown>>(row.metadata, {});
  return {
    id: row.id as string,
    userId: row.user_id as string,
    username: row.username as string,
    status: row.status as VpnAccountStatus,
    expireDate: toDateOrNull(row.expire_date),
    dataLimitBytes: Number(row.data_limit ?? 0),
    usedTrafficBytes: Number(metadata.used_traffic ?? 0),
    trafficCountedBytes: row.traffic_counted === null || row.traffic_counted === undefined ? null : Number(row.traffic_counted),
    metadata,
    createdAt: toDate(row.created_at),
    panelSeenAt: toDateOrNull(row.panel_seen_at),
    trial: row.trial_user_id !== null && row.trial_user_id !== undefined,
    billed: Boolean(row.billed) && row.billed !== '0',
  };
}

/** Our accounts that hold a panel user on a server (provisioned, not paused by us). */
const onServer = (db: Db, serverId: string) =>
  db('vpn_accounts').where({ master_server_id: serverId }).whereNotNull('subscription_url').whereNot({ status: 'suspended' });

export function createPanelSyncRepo(db: Db) {
  return {
    async getState(serverId: string): Promise<SyncState> {
      const row = await db('panel_sync_state').where({ server_id: serverId }).first();
      return {
        nextPage: row ? Number(row.next_page) : 1,
        passStartedAt: toDateOrNull(row?.pass_started_at),
        lastCompletePassAt: toDateOrNull(row?.last_complete_pass_at),
      };
    },

    async saveState(serverId: string, state: SyncState, now: Date): Promise<void> {
      await db('panel_sync_state')
        .insert({
          server_id: serverId,
          next_page: state.nextPage,
          pass_started_at: state.passStartedAt,
          last_complete_pass_at: state.lastCompletePassAt,
          updated_at: now,
        })
        .onConflict('server_id')
        .merge();
    },

    /** Ours among the panel users of one page (one query, on the unique username index). */
    async findOurs(serverId: string, usernames: string[]): Promise<SyncedAccount[]> {
      if (usernames.length === 0) return [];
      return (await onServer(db, serverId).whereIn('username', usernames).select(COLUMNS).select(db.raw(BILLED))).map(toSynced);
    },

    /**
     * Writes what the panel says of an account, keeping the rest of its metadata (its links), and moves
     * its counted traffic to the panel's figure. Only when the counted figure is still the one read (a
     * concurrent pass that counted first wins): false when nothing was written.
     */
    async applyPanelValues(account: SyncedAccount, values: PanelValues, now: Date, trx: Db = db): Promise<boolean> {
      const changed = await trx('vpn_accounts')
        .where({ id: account.id })
        .whereNot({ status: 'suspended' })
        .where((q) => (account.trafficCountedBytes === null ? q.whereNull('traffic_counted') : q.where('traffic_counted', account.trafficCountedBytes)))
        .update({
          ...usageColumns(values, account.metadata),
          traffic_counted: Math.round(values.usedTrafficBytes),
          usage_checked_at: now,
          panel_seen_at: now,
          updated_at: now,
        });
      return changed > 0;
    },

    /** Adds bytes used on a server to today's traffic (the admin's overview), in the transaction that counted them. */
    async addTraffic(serverId: string, bytes: number, now: Date, trx: Db): Promise<void> {
      await addToDailyStat(trx, { metric: DAILY_METRICS.traffic, day: utcDay(now), serverId, amount: bytes }, now);
    },

    /** Accounts seen for the first time start their counted traffic at what they have used so far. */
    async startCountingTraffic(accounts: SyncedAccount[]): Promise<void> {
      if (accounts.length === 0) return;
      await db.transaction(async (trx) => {
        for (const account of accounts) {
          await trx('vpn_accounts')
            .where({ id: account.id })
            .whereNull('traffic_counted')
            .update({ traffic_counted: Math.round(account.usedTrafficBytes) });
        }
      });
    },

    async markSeen(ids: string[], now: Date): Promise<void> {
      if (ids.length > 0) await db('vpn_accounts').whereIn('id', ids).update({ panel_seen_at: now, usage_checked_at: now });
    },

    /** Accounts that existed when the pass started and were not seen in it (at most `limit`). */
    async listUnseen(serverId: string, passStartedAt: Date, limit: number): Promise<SyncedAccount[]> {
      const rows = await onServer(db, serverId)
        .where('created_at', '<', passStartedAt)
        .where((q) => q.whereNull('panel_seen_at').orWhere('panel_seen_at', '<', passStartedAt))
        .whereNot({ status: 'disabled' })
        .orderBy('id')
        .limit(limit)
        .select(COLUMNS)
        .select(db.raw(BILLED));
      return rows.map(toSynced);
    },
  };
}

export type PanelSyncRepo = ReturnType<typeof createPanelSyncRepo>;
