import { PANEL_KINDS, type HealthState, type PanelKindName, type ServerStatus } from '../../../../shared/servers.js';
import type { Db } from '../../db/knex.js';
import { toBool, toDate, toDateOrNull } from '../../db/values.js';
import { regionTranslationsOf, saveRegionTranslations } from './region-translations.repo.js';
import type { RegionNameTranslations } from '../../../../shared/region-names.js';

export interface ServerRecord {
  id: string;
  kind: PanelKindName;
  name: string;
  /** What the public status page calls it, e.g. "Germany"; null shows a neutral "Location N". */
  publicName: string | null;
  /** `publicName` in the customers' other languages (table region_name_translations). */
  publicNameTranslations: RegionNameTranslations;
  url: string;
  username: string;
  /** Encrypted with the app secret; decrypted only to talk to the panel. */
  passwordEncrypted: string;
  serviceId: string;
  locations: string;
  /** Only the plans that list it may put accounts on it. */
  premium: boolean;
  status: ServerStatus;
  lastCheck: Date | null;
  /** When the panel's API token ends (a token panel's admin says so); null: not given, or no token. */
  tokenExpiresAt: Date | null;
  health: ServerHealthRecord;
  createdAt: Date;
  updatedAt: Date;
}

/** What the health checks (server-health.ts) found: written only by them and by a passing credential test. */
export interface ServerHealthRecord {
  state: HealthState;
  /** Failed checks in a row. */
  failures: number;
  checkedAt: Date | null;
  /** When `state` last changed. */
  changedAt: Date | null;
  latencyMs: number | null;
  error: string | null;
}

export interface ServerRegion {
  publicName: string | null;
  publicNameTranslations: RegionNameTranslations;
  locations: string;
  active: boolean;
  health: HealthState;
}

const HEALTH_COLUMNS = ['health', 'health_failures', 'health_checked_at', 'health_changed_at', 'health_latency_ms', 'health_error'];
const COLUMNS = [
  'id',
  'kind',
  'name',
  'public_name',
  'url',
  'username',
  'password_encrypted',
  'service_id',
  'locations',
  'premium',
  'status',
  'last_check',
  'token_expires_at',
  ...HEALTH_COLUMNS,
  'created_at',
  'updated_at',
];

const toHealthState = (value: unknown): HealthState => (value === 'up' || value === 'down' ? value : 'unknown');

function toRecord(row: Record<string, unknown>, translations: Map<string, RegionNameTranslations>): ServerRecord {
  return {
    id: row.id as string,
    kind: (PANEL_KINDS as readonly string[]).includes(row.kind as string) ? (row.kind as PanelKindName) : 'marzneshin',
    name: row.name as string,
    publicName: (row.public_name as string | null) ?? null,
    publicNameTranslations: translations.get(row.id as string) ?? {},
    url: row.url as string,
    username: row.username as string,
    passwordEncrypted: row.password_encrypted as string,
    serviceId: row.service_id as string,
    locations: row.locations as string,
    premium: toBool(row.premium),
    status: row.status === 'active' ? 'active' : 'disabled',
    lastCheck: toDateOrNull(row.last_check),
    tokenExpiresAt: toDateOrNull(row.token_expires_at),
    health: {
      state: toHealthState(row.health),
      failures: Number(row.health_failures ?? 0),
      checkedAt: toDateOrNull(row.health_checked_at),
      changedAt: toDateOrNull(row.health_changed_at),
      latencyMs: row.health_latency_ms === null || row.health_latency_ms === undefined ? null : Number(row.health_latency_ms),
      error: (row.health_error as string | null) ?? null,
    },
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

type ServerFields = Omit<ServerRecord, 'id' | 'health' | 'createdAt' | 'updatedAt'>;

function toRow(fields: Partial<ServerFields>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (fields.kind !== undefined) row.kind = fields.kind;
  if (fields.name !== undefined) row.name = fields.name;
  if (fields.publicName !== undefined) row.public_name = fields.publicName;
  if (fields.url !== undefined) row.url = fields.url;
  if (fields.username !== undefined) row.username = fields.username;
  if (fields.passwordEncrypted !== undefined) row.password_encrypted = fields.passwordEncrypted;
  if (fields.serviceId !== undefined) row.service_id = fields.serviceId;
  if (fields.locations !== undefined) row.locations = fields.locations;
  if (fields.premium !== undefined) row.premium = fields.premium;
  if (fields.status !== undefined) row.status = fields.status;
  if (fields.lastCheck !== undefined) row.last_check = fields.lastCheck;
  if (fields.tokenExpiresAt !== undefined) row.token_expires_at = fields.tokenExpiresAt;
  return row;
}

export function createServersRepo(db: Db) {
  return {
    async list(): Promise<ServerRecord[]> {
      const [rows, translations] = await Promise.all([db('masterservers').select(COLUMNS).orderBy('name'), regionTranslationsOf(db)]);
      return rows.map((row) => toRecord(row, translations));
    },

    async findById(id: string): Promise<ServerRecord | undefined> {
      const row = await db('masterservers').select(COLUMNS).where({ id }).first();
      return row && toRecord(row, await regionTranslationsOf(db, [id]));
    },

    async insert(id: string, fields: ServerFields, now: Date): Promise<ServerRecord> {
      await db.transaction(async (trx) => {
        await trx('masterservers').insert({ id, ...toRow(fields), created_at: now, updated_at: now });
        await saveRegionTranslations(trx, id, fields.publicNameTranslations);
      });
      return (await this.findById(id))!;
    },

    async update(id: string, fields: Partial<ServerFields>, now: Date): Promise<ServerRecord | undefined> {
      await db.transaction(async (trx) => {
        const changed = await trx('masterservers')
          .where({ id })
          .update({ ...toRow(fields), updated_at: now });
        if (changed && fields.publicNameTranslations !== undefined) await saveRegionTranslations(trx, id, fields.publicNameTranslations);
      });
      return this.findById(id);
    },

    async remove(id: string): Promise<boolean> {
      return (await db('masterservers').where({ id }).delete()) === 1;
    },

    async countAccounts(id: string): Promise<number> {
      const [row] = await db('vpn_accounts').where({ master_server_id: id }).count({ n: '*' });
      return Number(row?.n ?? 0);
    },

    /** Public name, locations and state of every panel server: what the public may know (never the address or the internal name). */
    async listRegions(): Promise<ServerRegion[]> {
      const [rows, translations] = await Promise.all([
        db('masterservers')
          .select('id', 'public_name', 'locations', 'status', 'health')
          .orderBy([{ column: 'created_at' }, { column: 'id' }]),
        regionTranslationsOf(db),
      ]);
      return rows.map((row) => ({
        publicName: row.public_name ?? null,
        publicNameTranslations: translations.get(row.id as string) ?? {},
        locations: row.locations,
        active: row.status === 'active',
        health: toHealthState(row.health),
      }));
    },

    /**
     * A check that answered: the failures in a row start again from 0. Returns true when this very call
     * brought a DOWN server back up (the conditional update is the gate: a racing check cannot recover it twice).
     */
    async recordCheckSuccess(id: string, latencyMs: number | null, now: Date, trx: Db = db): Promise<{ recovered: boolean }> {
      const recovered = await trx('masterservers').where({ id, health: 'down' }).update({ health: 'up', health_changed_at: now });
      await trx('masterservers').where({ id, health: 'unknown' }).update({ health: 'up', health_changed_at: now });
      await trx('masterservers').where({ id }).update({ health_failures: 0, health_checked_at: now, health_latency_ms: latencyMs, health_error: null });
      return { recovered: recovered > 0 };
    },

    /**
     * A check that failed: one more failure in a row. Returns true when this very call took the server
     * DOWN (it had `downAfter` failures in a row and was not down yet).
     */
    async recordCheckFailure(id: string, error: string, downAfter: number, now: Date, trx: Db = db): Promise<{ wentDown: boolean }> {
      await trx('masterservers')
        .where({ id })
        .update({
          health_failures: trx.raw('health_failures + 1'),
          health_checked_at: now,
          health_latency_ms: null,
          health_error: error.slice(0, 500),
        });
      const wentDown = await trx('masterservers')
        .where({ id })
        .whereNot({ health: 'down' })
        .where('health_failures', '>=', downAfter)
        .update({ health: 'down', health_changed_at: now });
      return { wentDown: wentDown > 0 };
    },
  };
}

export type ServersRepo = ReturnType<typeof createServersRepo>;
