import type { AddOn, AddOnKind, AddOnStatus, AddOnTranslations, AddOnUntil } from '../../../../../shared/add-ons.js';
import type { Db } from '../../../db/knex.js';
import { parseJson, toDate, toDateOrNull, toJson } from '../../../db/values.js';

/** An add-on as it is stored (`add_ons`). */
export type AddOnRecord = Omit<AddOn, 'createdAt'> & { createdAt: Date };

/** What an account was given by one paid add-on (`account_add_ons`, a row per payment). */
export interface AddOnGrant {
  id: string;
  accountId: string;
  userId: string;
  addOnId: string | null;
  transactionId: string;
  name: string;
  kind: AddOnKind;
  amount: number;
  until: AddOnUntil;
  endsAt: Date | null;
  revokedAt: Date | null;
  /** A traffic add-on: the panel data limit it set (written before the panel is asked), and the one its refund set. */
  panelDataLimit: number | null;
  panelDataLimitAfterRevoke: number | null;
  appliedAt: Date | null;
  createdAt: Date;
}

const toAddOn = (row: Record<string, unknown>): AddOnRecord => ({
  id: row.id as string,
  name: row.name as string,
  kind: row.kind as AddOnKind,
  amount: Number(row.amount),
  price: Number(row.price),
  translations: parseJson<AddOnTranslations>(row.translations, {}),
  appliesTo: row.applies_to ? parseJson<string[] | null>(row.applies_to, null) : null,
  until: row.until as AddOnUntil,
  status: row.status as AddOnStatus,
  createdAt: toDate(row.created_at),
});

const toGrant = (row: Record<string, unknown>): AddOnGrant => ({
  id: row.id as string,
  accountId: row.vpn_account_id as string,
  userId: row.user_id as string,
  addOnId: (row.add_on_id as string | null) ?? null,
  transactionId: row.transaction_id as string,
  name: row.name as string,
  kind: row.kind as AddOnKind,
  amount: Number(row.amount),
  until: row.until as AddOnUntil,
  endsAt: toDateOrNull(row.ends_at),
  revokedAt: toDateOrNull(row.revoked_at),
  panelDataLimit: row.panel_data_limit === null || row.panel_data_limit === undefined ? null : Number(row.panel_data_limit),
  panelDataLimitAfterRevoke:
    row.panel_data_limit_after_revoke === null || row.panel_data_limit_after_revoke === undefined ? null : Number(row.panel_data_limit_after_revoke),
  appliedAt: toDateOrNull(row.applied_at),
  createdAt: toDate(row.created_at),
});

/** The columns of an add-on's fields. */
function columnsOf(fields: Partial<Omit<AddOnRecord, 'id' | 'createdAt'>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (fields.name !== undefined) row.name = fields.name;
  if (fields.kind !== undefined) row.kind = fields.kind;
  if (fields.amount !== undefined) row.amount = fields.amount;
  if (fields.price !== undefined) row.price = fields.price;
  if (fields.translations !== undefined) row.translations = toJson(fields.translations);
  if (fields.appliesTo !== undefined) row.applies_to = fields.appliesTo === null ? null : toJson(fields.appliesTo);
  if (fields.until !== undefined) row.until = fields.until;
  if (fields.status !== undefined) row.status = fields.status;
  return row;
}

/** Live: not refunded, and (a `period_end` one) its period not over. */
const live = (query: ReturnType<Db>, now: Date) => query.whereNull('revoked_at').where((q) => q.whereNull('ends_at').orWhere('ends_at', '>', now));

/** The add-ons the operator sells, and the ledger of what accounts were given (a row per paid add-on). */
export function createAddOnsRepo(db: Db) {
  return {
    async list(): Promise<AddOnRecord[]> {
      return (await db('add_ons').orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id' }])).map(toAddOn);
    },

    async findById(id: string, trx: Db = db): Promise<AddOnRecord | undefined> {
      const row = await trx('add_ons').where({ id }).first();
      return row && toAddOn(row);
    },

    async insert(addOn: Omit<AddOnRecord, 'createdAt'>, now: Date, trx: Db = db): Promise<void> {
      await trx('add_ons').insert({ id: addOn.id, ...columnsOf(addOn), created_at: now, updated_at: now });
    },

    async update(id: string, fields: Partial<Omit<AddOnRecord, 'id' | 'createdAt'>>, now: Date, trx: Db = db): Promise<boolean> {
      return (
        (await trx('add_ons')
          .where({ id })
          .update({ ...columnsOf(fields), updated_at: now })) > 0
      );
    },

    async remove(id: string, trx: Db = db): Promise<void> {
      await trx('add_ons').where({ id }).delete();
    },

    /** How many accounts were ever given it (it cannot be deleted then, only switched off). */
    async grantCount(addOnId: string, trx: Db = db): Promise<number> {
      return Number((await trx('account_add_ons').where({ add_on_id: addOnId }).count({ n: '*' }).first())?.n ?? 0);
    },

    /** Writes the grant of a paid add-on, once per payment (false when it was written already). */
    async insertGrant(grant: Omit<AddOnGrant, 'revokedAt' | 'panelDataLimit' | 'panelDataLimitAfterRevoke' | 'appliedAt'>, trx: Db): Promise<boolean> {
      const inserted = await trx('account_add_ons')
        .insert({
          id: grant.id,
          vpn_account_id: grant.accountId,
          user_id: grant.userId,
          add_on_id: grant.addOnId,
          transaction_id: grant.transactionId,
          name: grant.name,
          kind: grant.kind,
          amount: grant.amount,
          until: grant.until,
          ends_at: grant.endsAt,
          created_at: grant.createdAt,
          updated_at: grant.createdAt,
        })
        .onConflict('transaction_id')
        .ignore()
        .returning('id');
      return inserted.length > 0;
    },

    async grantOf(transactionId: string, trx: Db = db): Promise<AddOnGrant | undefined> {
      const row = await trx('account_add_ons').where({ transaction_id: transactionId }).first();
      return row && toGrant(row);
    },

    /** The account's add-ons that count now, oldest first. */
    async liveGrants(accountId: string, now: Date, trx: Db = db): Promise<AddOnGrant[]> {
      return (await live(trx('account_add_ons').where({ vpn_account_id: accountId }), now).orderBy('created_at')).map(toGrant);
    },

    /** A refund ends the grant, once; returns it when this call ended it. */
    async revokeGrant(transactionId: string, now: Date, trx: Db): Promise<AddOnGrant | undefined> {
      const changed = await trx('account_add_ons')
        .where({ transaction_id: transactionId })
        .whereNull('revoked_at')
        .update({ revoked_at: now, updated_at: now });
      return changed > 0 ? this.grantOf(transactionId, trx) : undefined;
    },

    /** The panel data limit the grant sets (or its refund sets), written before the panel is asked. */
    async setPanelTarget(grantId: string, column: 'panel_data_limit' | 'panel_data_limit_after_revoke', limit: number, now: Date): Promise<void> {
      await db('account_add_ons')
        .where({ id: grantId })
        .update({ [column]: limit, updated_at: now });
    },

    async markApplied(grantId: string, now: Date, trx: Db = db): Promise<void> {
      await trx('account_add_ons').where({ id: grantId }).update({ applied_at: now, updated_at: now });
    },

    /** `vpn_accounts.extra_devices` from the account's live device add-ons (after a grant, a refund, or an end). */
    async refreshExtraDevices(accountId: string, now: Date, trx: Db = db): Promise<number> {
      const row = await live(trx('account_add_ons').where({ vpn_account_id: accountId, kind: 'devices' }), now)
        .sum({ n: 'amount' })
        .first();
      const extra = Number(row?.n ?? 0) || 0;
      await trx('vpn_accounts').where({ id: accountId }).update({ extra_devices: extra });
      return extra;
    },

    /**
     * The account's limit came down (a device add-on refunded or ended): its devices beyond it, the newest first, lose
     * their slot, so the next refresh of such a device is refused (a known device is otherwise admitted as it is).
     * Returns how many were removed.
     */
    async trimDevices(accountId: string, trx: Db = db): Promise<number> {
      const account = await trx('vpn_accounts').where({ id: accountId }).select('device_limit', 'extra_devices').first();
      if (!account || account.device_limit === null || account.device_limit === undefined) return 0;
      const limit = Number(account.device_limit) + Number(account.extra_devices ?? 0);
      const over = await trx('account_devices')
        .where({ vpn_account_id: accountId })
        .orderBy([
          { column: 'first_seen_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select('id');
      const removed = over.slice(0, Math.max(0, over.length - limit)).map((row: { id: string }) => row.id);
      if (removed.length > 0) await trx('account_devices').whereIn('id', removed).delete();
      return removed.length;
    },

    /** Accounts that count devices from add-ons, some of which may have ended by now. */
    async accountsWithExtraDevices(limit: number): Promise<string[]> {
      return (await db('vpn_accounts').where('extra_devices', '>', 0).select('id').limit(limit)).map((row: { id: string }) => row.id);
    },

    /** The total traffic of the account's live traffic add-ons (each month of a plan that resets monthly starts with them). */
    async liveTraffic(accountId: string, now: Date, trx: Db = db): Promise<number> {
      const row = await live(trx('account_add_ons').where({ vpn_account_id: accountId, kind: 'traffic' }), now)
        .sum({ n: 'amount' })
        .first();
      return Number(row?.n ?? 0) || 0;
    },

    /** The total traffic of the account's live `forever` traffic add-ons (a renewal's new limit carries them). */
    async foreverTraffic(accountId: string, now: Date, trx: Db = db): Promise<number> {
      const row = await live(trx('account_add_ons').where({ vpn_account_id: accountId, kind: 'traffic', until: 'forever' }), now)
        .sum({ n: 'amount' })
        .first();
      return Number(row?.n ?? 0) || 0;
    },
  };
}

export type AddOnsRepo = ReturnType<typeof createAddOnsRepo>;
