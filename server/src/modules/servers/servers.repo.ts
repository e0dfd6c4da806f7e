import type { PanelKindName, ServerStatus } from '../../../../shared/servers.js';
import type { Db } from '../../db/knex.js';
import { toDate, toDateOrNull } from '../../db/values.js';

export interface ServerRecord {
  id: string;
  kind: PanelKindName;
  name: string;
  url: string;
  username: string;
  /** Encrypted with the app secret; decrypted only to talk to the panel. */
  passwordEncrypted: string;
  serviceId: string;
  locations: string;
  status: ServerStatus;
  lastCheck: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ServerRegion {
  name: string;
  locations: string;
  active: boolean;
}

const COLUMNS = ['id', 'kind', 'name', 'url', 'username', 'password_encrypted', 'service_id', 'locations', 'status', 'last_check', 'created_at', 'updated_at'];

function toRecord(row: Record<string, unknown>): ServerRecord {
  return {
    id: row.id as string,
    kind: row.kind === 'marzban' ? 'marzban' : 'marzneshin',
    name: row.name as string,
    url: row.url as string,
    username: row.username as string,
    passwordEncrypted: row.password_encrypted as string,
    serviceId: row.service_id as string,
    locations: row.locations as string,
    status: row.status === 'active' ? 'active' : 'disabled',
    lastCheck: toDateOrNull(row.last_check),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

type ServerFields = Omit<ServerRecord, 'id' | 'createdAt' | 'updatedAt'>;

function toRow(fields: Partial<ServerFields>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (fields.kind !== undefined) row.kind = fields.kind;
  if (fields.name !== undefined) row.name = fields.name;
  if (fields.url !== undefined) row.url = fields.url;
  if (fields.username !== undefined) row.username = fields.username;
  if (fields.passwordEncrypted !== undefined) row.password_encrypted = fields.passwordEncrypted;
  if (fields.serviceId !== undefined) row.service_id = fields.serviceId;
  if (fields.locations !== undefined) row.locations = fields.locations;
  if (fields.status !== undefined) row.status = fields.status;
  if (fields.lastCheck !== undefined) row.last_check = fields.lastCheck;
  return row;
}

export function createServersRepo(db: Db) {
  return {
    async list(): Promise<ServerRecord[]> {
      return (await db('masterservers').select(COLUMNS).orderBy('name')).map(toRecord);
    },

    async findById(id: string): Promise<ServerRecord | undefined> {
      const row = await db('masterservers').select(COLUMNS).where({ id }).first();
      return row && toRecord(row);
    },

    async insert(id: string, fields: ServerFields, now: Date): Promise<ServerRecord> {
      await db('masterservers').insert({ id, ...toRow(fields), created_at: now, updated_at: now });
      return (await this.findById(id))!;
    },

    async update(id: string, fields: Partial<ServerFields>, now: Date): Promise<ServerRecord | undefined> {
      await db('masterservers').where({ id }).update({ ...toRow(fields), updated_at: now });
      return this.findById(id);
    },

    async remove(id: string): Promise<boolean> {
      return (await db('masterservers').where({ id }).delete()) === 1;
    },

    async countAccounts(id: string): Promise<number> {
      const [row] = await db('vpn_accounts').where({ master_server_id: id }).count({ n: '*' });
      return Number(row?.n ?? 0);
    },

    /** Name, locations and state of every panel server: what the public may know (never the address). */
    async listRegions(): Promise<ServerRegion[]> {
      const rows = await db('masterservers').select('name', 'locations', 'status').orderBy('name');
      return rows.map((row) => ({ name: row.name, locations: row.locations, active: row.status === 'active' }));
    },
  };
}

export type ServersRepo = ReturnType<typeof createServersRepo>;
