import type { PlanServer } from '../../../../shared/plan-servers.js';
import type { PlanBilling, PlanStatus, TrafficReset } from '../../../../shared/plans.js';
import { TRANSLATED_LOCALES, type PlanTranslation, type PlanTranslations } from '../../../../shared/plan-translations.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toBool, toDate, toJson } from '../../db/values.js';

export interface PlanRecord {
  id: string;
  name: string;
  days: number;
  dataLimitBytes: number;
  locations: string;
  price: number;
  status: PlanStatus;
  isTrial: boolean;
  tier: string | null;
  features: string[];
  mostPopular: boolean;
  sortOrder: number;
  public: boolean;
  billing: PlanBilling;
  /** Devices one account of this plan may use; null = unlimited. */
  deviceLimit: number | null;
  /** Whole Telegram Stars the bot sells it for; null = not sold for Stars. */
  starsPrice: number | null;
  /** The name, tier and features in the other languages (shared/plan-translations.ts). */
  translations: PlanTranslations;
  /** `monthly`: the store resets the data every month of the paid period (billing/traffic). */
  trafficReset: TrafficReset;
  /** Unused data is added to the next month's or period's allowance. */
  trafficCarryOver: boolean;
  /** Days an account runs after its paid end when nothing renews it. */
  graceDays: number;
  /** Data allowed during the grace (the limit becomes used + this at the paid end); null = unchanged. */
  graceDataBytes: number | null;
  /** The servers its accounts may use, with their squads or groups there (`plan_servers`); empty: any that covers `locations`. */
  servers: PlanServer[];
  createdAt: Date;
  updatedAt: Date;
}

export type PlanFields = Omit<PlanRecord, 'id' | 'createdAt' | 'updatedAt'>;

function toFeatures(value: unknown): string[] {
  const list = parseJson<unknown>(value, []);
  return Array.isArray(list) ? list.filter((line): line is string => typeof line === 'string') : [];
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What is stored, read defensively: only the site's languages, only text, empty fields left out. */
export function toTranslations(value: unknown): PlanTranslations {
  const stored = parseJson<unknown>(value, {});
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const translations: PlanTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const entry = (stored as Record<string, unknown>)[locale];
    if (!entry || typeof entry !== 'object') continue;
    const { name, tier, features } = entry as Record<string, unknown>;
    const translation: PlanTranslation = {};
    if (isText(name)) translation.name = name;
    if (isText(tier)) translation.tier = tier;
    const lines = Array.isArray(features) ? features.filter(isText) : [];
    if (lines.length > 0) translation.features = lines;
    if (Object.keys(translation).length > 0) translations[locale] = translation;
  }
  return translations;
}

/** The traffic columns (migration 053); a row from before reads as the defaults. */
function toTrafficRules(row: Record<string, unknown>): Pick<PlanRecord, 'trafficReset' | 'trafficCarryOver' | 'graceDays' | 'graceDataBytes'> {
  return {
    trafficReset: row.traffic_reset === 'monthly' ? 'monthly' : 'none',
    trafficCarryOver: toBool(row.traffic_carry_over),
    graceDays: Number(row.grace_days ?? 0),
    graceDataBytes: row.grace_data_limit === null || row.grace_data_limit === undefined ? null : Number(row.grace_data_limit),
  };
}

function toRecord(row: Record<string, unknown>, servers: PlanServer[]): PlanRecord {
  const metadata = parseJson<{ is_trial?: boolean }>(row.metadata, {});
  return {
    id: row.id as string,
    name: row.name as string,
    days: Number(row.days),
    dataLimitBytes: Number(row.data_limit),
    locations: row.locations as string,
    price: Number(row.price),
    status: row.status === 'disabled' ? 'disabled' : 'active',
    isTrial: metadata.is_trial === true,
    tier: typeof row.tier === 'string' && row.tier !== '' ? row.tier : null,
    features: toFeatures(row.features),
    mostPopular: toBool(row.most_popular),
    sortOrder: Number(row.sort_order ?? 0),
    public: toBool(row.is_public),
    billing: row.billing === 'recurring' ? 'recurring' : 'one_off',
    deviceLimit: row.device_limit === null || row.device_limit === undefined ? null : Number(row.device_limit),
    starsPrice: row.stars_price === null || row.stars_price === undefined ? null : Number(row.stars_price),
    translations: toTranslations(row.translations),
    ...toTrafficRules(row),
    servers,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function toRow(fields: Partial<PlanFields>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (fields.name !== undefined) row.name = fields.name;
  if (fields.days !== undefined) row.days = fields.days;
  if (fields.dataLimitBytes !== undefined) row.data_limit = fields.dataLimitBytes;
  if (fields.locations !== undefined) row.locations = fields.locations;
  if (fields.price !== undefined) row.price = fields.price;
  if (fields.status !== undefined) row.status = fields.status;
  if (fields.isTrial !== undefined) row.metadata = toJson({ is_trial: fields.isTrial });
  if (fields.tier !== undefined) row.tier = fields.tier;
  if (fields.features !== undefined) row.features = toJson(fields.features);
  if (fields.mostPopular !== undefined) row.most_popular = fields.mostPopular;
  if (fields.sortOrder !== undefined) row.sort_order = fields.sortOrder;
  if (fields.public !== undefined) row.is_public = fields.public;
  if (fields.billing !== undefined) row.billing = fields.billing;
  if (fields.deviceLimit !== undefined) row.device_limit = fields.deviceLimit;
  if (fields.starsPrice !== undefined) row.stars_price = fields.starsPrice;
  if (fields.translations !== undefined) row.translations = toJson(fields.translations);
  if (fields.trafficReset !== undefined) row.traffic_reset = fields.trafficReset;
  if (fields.trafficCarryOver !== undefined) row.traffic_carry_over = fields.trafficCarryOver;
  if (fields.graceDays !== undefined) row.grace_days = fields.graceDays;
  if (fields.graceDataBytes !== undefined) row.grace_data_limit = fields.graceDataBytes;
  return row;
}

/** Each plan's servers (migration 055), in the order the admin listed them. */
async function serversOf(db: Db, planIds: string[]): Promise<Map<string, PlanServer[]>> {
  const byPlan = new Map<string, PlanServer[]>();
  if (planIds.length === 0) return byPlan;
  const rows = await db('plan_servers').select('plan_id', 'server_id', 'service_id').whereIn('plan_id', planIds).orderBy(['plan_id', 'position']);
  for (const row of rows) {
    const list = byPlan.get(row.plan_id as string) ?? [];
    list.push({ serverId: row.server_id as string, serviceId: (row.service_id as string | null) || null });
    byPlan.set(row.plan_id as string, list);
  }
  return byPlan;
}

async function withServers(db: Db, rows: Array<Record<string, unknown>>): Promise<PlanRecord[]> {
  const servers = await serversOf(
    db,
    rows.map((row) => row.id as string),
  );
  return rows.map((row) => toRecord(row, servers.get(row.id as string) ?? []));
}

/** The plan's servers replaced by `servers` (with the plan's row, in its transaction). */
async function replaceServers(trx: Db, planId: string, servers: PlanServer[]): Promise<void> {
  await trx('plan_servers').where({ plan_id: planId }).delete();
  if (servers.length > 0)
    await trx('plan_servers').insert(
      servers.map((server, position) => ({ plan_id: planId, server_id: server.serverId, service_id: server.serviceId, position })),
    );
}

export function createPlansRepo(db: Db) {
  return {
    /** Active plans in display order: the operator's order, then cheapest and shortest first. */
    async listActive(): Promise<PlanRecord[]> {
      const rows = await db('plans')
        .select('*')
        .where({ status: 'active' })
        .orderBy([{ column: 'sort_order' }, { column: 'price' }, { column: 'days' }, { column: 'name' }, { column: 'id' }]);
      return withServers(db, rows);
    },

    async count(): Promise<number> {
      const [row] = await db('plans').count({ n: '*' });
      return Number(row?.n ?? 0);
    },

    async listAll(): Promise<PlanRecord[]> {
      return withServers(db, await db('plans').select('*').orderBy('created_at', 'desc'));
    },

    async findById(id: string, trx: Db = db): Promise<PlanRecord | undefined> {
      const row = await trx('plans').select('*').where({ id }).first();
      return row && (await withServers(trx, [row]))[0];
    },

    async insert(id: string, fields: PlanFields, now: Date): Promise<PlanRecord> {
      await db.transaction(async (trx) => {
        await trx('plans').insert({ id, ...toRow(fields), created_at: now, updated_at: now });
        await replaceServers(trx, id, fields.servers);
      });
      return (await this.findById(id))!;
    },

    async update(id: string, fields: Partial<PlanFields>, now: Date): Promise<PlanRecord | undefined> {
      await db.transaction(async (trx) => {
        const changed = await trx('plans')
          .where({ id })
          .update({ ...toRow(fields), updated_at: now });
        if (changed && fields.servers !== undefined) await replaceServers(trx, id, fields.servers);
      });
      return this.findById(id);
    },

    /** The plans that list the server (a server they list cannot be deleted). */
    async namesListing(serverId: string): Promise<string[]> {
      const rows = await db('plan_servers as ps').join('plans as p', 'p.id', 'ps.plan_id').where('ps.server_id', serverId).select('p.name').orderBy('p.name');
      return rows.map((row) => row.name as string);
    },

    async remove(id: string): Promise<void> {
      await db('plans').where({ id }).delete();
    },

    /** Accounts and subscriptions that name this plan. */
    async countReferences(id: string): Promise<number> {
      const [accounts] = await db('vpn_accounts').where({ plan_id: id }).count({ n: '*' });
      const [subscriptions] = await db('subscriptions').where({ plan_id: id }).count({ n: '*' });
      return Number(accounts?.n ?? 0) + Number(subscriptions?.n ?? 0);
    },
  };
}

export type PlansRepo = ReturnType<typeof createPlansRepo>;
