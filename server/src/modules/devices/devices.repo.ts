import { deviceLimitWithExtras } from '../../../../shared/devices.js';
import { randomUUID } from 'node:crypto';
import { DEVICE_LIMIT_MAX } from '../../../../shared/devices.js';
import type { Knex } from 'knex';
import { dialectOf, type Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';
import type { ClientDevice } from './device-headers.js';

export interface DeviceRecord {
  id: string;
  accountId: string;
  os: string | null;
  osVersion: string | null;
  model: string | null;
  app: string | null;
  anonymous: boolean;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** The account a device list belongs to. */
export interface DeviceAccount {
  id: string;
  userId: string;
  username: string;
  deviceLimit: number | null;
}

/**
 * What admitting a device did: `known` (it already was one of the account's), `admitted` (a new one,
 * recorded), `refused` (a new one, and the account already has `count` devices of its limit), or
 * `unrecorded` (an account without a limit that already has RECORDED_DEVICES_MAX: served, not recorded).
 */
export type Admission = { outcome: 'known' | 'admitted' | 'unrecorded' } | { outcome: 'refused'; count: number };

/** How many devices of an account without a limit are recorded at most (a flood of made-up ids stops here). */
export const RECORDED_DEVICES_MAX = DEVICE_LIMIT_MAX;

const COLUMNS = ['id', 'vpn_account_id', 'os', 'os_version', 'model', 'app', 'anonymous', 'first_seen_at', 'last_seen_at'];

function toRecord(row: Record<string, unknown>): DeviceRecord {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    id: row.id as string,
    accountId: row.vpn_account_id as string,
    os: text(row.os),
    osVersion: text(row.os_version),
    model: text(row.model),
    app: text(row.app),
    anonymous: Boolean(row.anonymous) && row.anonymous !== '0',
    firstSeenAt: toDate(row.first_seen_at),
    lastSeenAt: toDate(row.last_seen_at),
  };
}

const deviceColumns = (device: ClientDevice) => ({ os: device.os, os_version: device.osVersion, model: device.model, app: device.app });

export function createDevicesRepo(db: Db) {
  const lockable = () => dialectOf(db) === 'postgres';
  /** The devices that hold a slot: every announced one, and an anonymous one seen since `anonymousSince`. */
  const holdingSlots = (query: Knex.QueryBuilder, anonymousSince: Date | undefined) =>
    anonymousSince ? query.where((q) => q.where({ anonymous: false }).orWhere('last_seen_at', '>=', anonymousSince)) : query;
  const countOf = async (trx: Db, accountId: string, anonymousSince: Date | undefined, except?: string) => {
    const query = holdingSlots(trx('account_devices').where({ vpn_account_id: accountId }), anonymousSince);
    if (except) query.whereNot({ hwid: except });
    return Number((await query.count({ n: '*' }).first())?.n ?? 0);
  };

  return {
    /** The account, if it exists (and, given `ownerId`, belongs to that user: someone else's is not found). */
    async findAccount(accountId: string, ownerId?: string): Promise<DeviceAccount | undefined> {
      const query = db('vpn_accounts').select('id', 'user_id', 'username', 'device_limit', 'extra_devices').where({ id: accountId });
      if (ownerId !== undefined) query.where({ user_id: ownerId });
      const row = await query.first();
      if (!row) return undefined;
      return {
        id: row.id,
        userId: row.user_id,
        username: row.username,
        deviceLimit: deviceLimitWithExtras(row.device_limit, row.extra_devices),
      };
    },

    /** An account's devices, oldest first: the anonymous ones only when seen since `anonymousSince` (they hold no slot after). */
    async listForAccount(accountId: string, anonymousSince?: Date): Promise<DeviceRecord[]> {
      const rows = await holdingSlots(db('account_devices').select(COLUMNS).where({ vpn_account_id: accountId }), anonymousSince).orderBy([
        { column: 'first_seen_at' },
        { column: 'id' },
      ]);
      return rows.map(toRecord);
    },

    /** Each device id an account has admitted, with when it was last seen (ms): what /sub keeps in memory. */
    async seenOf(accountId: string): Promise<Map<string, number>> {
      const rows = await db('account_devices').select('hwid', 'last_seen_at').where({ vpn_account_id: accountId });
      return new Map(rows.map((row: Record<string, unknown>) => [row.hwid as string, toDate(row.last_seen_at).getTime()]));
    },

    /**
     * Makes `device` one of the account's, if there is room. With a limit, one transaction holds the
     * account's row (PostgreSQL `FOR UPDATE`; SQLite has one writer), counts its devices and inserts only
     * below the limit, so two new devices at one free slot cannot both get it. The insert is the only
     * write: a crash before the commit leaves nothing. A device racing itself inserts nothing the second time.
     * An anonymous device (an app without a device id) holds its slot while seen since `anonymousSince`: one
     * seen again after that is admitted like a new one (a slot must be free), and its row is taken again.
     */
    async admit(accountId: string, device: ClientDevice, limit: number | null, now: Date, anonymousSince?: Date): Promise<Admission> {
      return db.transaction(async (trx) => {
        if (limit !== null && lockable()) await trx('vpn_accounts').select('id').where({ id: accountId }).forUpdate().first();
        const existing = await trx('account_devices').select('id', 'anonymous', 'last_seen_at').where({ vpn_account_id: accountId, hwid: device.hwid }).first();
        const lapsed = existing && anonymousSince && toDate(existing.last_seen_at).getTime() < anonymousSince.getTime();
        if (existing && !lapsed) return { outcome: 'known' as const };
        const count = await countOf(trx, accountId, anonymousSince, lapsed ? device.hwid : undefined);
        if (limit !== null && count >= limit) return { outcome: 'refused' as const, count };
        if (lapsed) {
          await trx('account_devices')
            .where({ id: existing.id })
            .update({ ...deviceColumns(device), last_seen_at: now });
          return { outcome: 'admitted' as const };
        }
        if (limit === null && count >= RECORDED_DEVICES_MAX) return { outcome: 'unrecorded' as const };
        const inserted = await trx('account_devices')
          .insert({
            id: randomUUID(),
            vpn_account_id: accountId,
            hwid: device.hwid,
            ...deviceColumns(device),
            anonymous: device.anonymous === true,
            first_seen_at: now,
            last_seen_at: now,
          })
          .onConflict(['vpn_account_id', 'hwid'])
          .ignore()
          .returning('id');
        return { outcome: inserted.length > 0 ? ('admitted' as const) : ('known' as const) };
      });
    },

    /** A known device was seen again: when, and what it now says about itself. */
    async touch(accountId: string, device: ClientDevice, now: Date): Promise<void> {
      await db('account_devices')
        .where({ vpn_account_id: accountId, hwid: device.hwid })
        .update({ ...deviceColumns(device), last_seen_at: now });
    },

    /** Deletes one device of the account; the record deleted, or undefined when there was none. */
    async remove(accountId: string, deviceId: string): Promise<DeviceRecord | undefined> {
      const row = await db('account_devices').select(COLUMNS).where({ id: deviceId, vpn_account_id: accountId }).first();
      if (!row) return undefined;
      const deleted = await db('account_devices').where({ id: deviceId, vpn_account_id: accountId }).delete();
      return deleted > 0 ? toRecord(row) : undefined;
    },
  };
}

export type DevicesRepo = ReturnType<typeof createDevicesRepo>;
