import type { PromoDuration } from '../../../../shared/promo-codes.js';
import { dialectOf, type Db } from '../../db/knex.js';
import { parseJson, toBool, toDate, toDateOrNull, toJson } from '../../db/values.js';

export interface PromoCodeRecord {
  id: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: PromoDuration;
  durationMonths: number | null;
  planIds: string[] | null;
  maxRedemptions: number | null;
  oncePerCustomer: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  active: boolean;
  /** The referral programme's code: its key starts with `~`, which no typed code has (PROMO_CODE_PATTERN). */
  referral: boolean;
  createdAt: Date;
}

/** The prefix of the referral programme's codes' keys. */
export const REFERRAL_KEY_PREFIX = '~';

export interface PromoCodeUsage {
  /** Redemptions whose checkout is open or paid. */
  used: number;
  paidCount: number;
  discountTotal: number;
}

export interface NewRedemption {
  id: string;
  promoCodeId: string;
  userId: string;
  transactionId: string;
  subscriptionId: string;
  amountBefore: number;
  discount: number;
  currency: string;
}

/**
 * The transaction statuses under which a redemption holds its use: an open checkout, and a payment that
 * happened (refunded or disputed later included). A checkout that expired, was cancelled or failed gave it back.
 */
export const HOLDING_STATUSES = ['pending', 'succeeded', 'needs_review', 'refunded', 'disputed'] as const;
/** A payment was made with the code. */
const PAID_STATUSES = ['succeeded', 'refunded', 'disputed'] as const;

type Row = Record<string, unknown>;

const toRecord = (row: Row): PromoCodeRecord => ({
  id: row.id as string,
  code: row.code as string,
  percentOff: (row.percent_off as number | null) ?? null,
  amountOff: (row.amount_off as number | null) ?? null,
  currency: (row.currency as string | null) ?? null,
  duration: row.duration as PromoDuration,
  durationMonths: (row.duration_months as number | null) ?? null,
  planIds: parseJson<string[] | null>(row.plan_ids, null),
  maxRedemptions: (row.max_redemptions as number | null) ?? null,
  oncePerCustomer: toBool(row.once_per_customer),
  startsAt: toDateOrNull(row.starts_at),
  endsAt: toDateOrNull(row.ends_at),
  active: toBool(row.active),
  referral: String(row.code_key).startsWith(REFERRAL_KEY_PREFIX),
  createdAt: toDate(row.created_at),
});

/** Redemptions of a code whose transaction still holds the use. */
const holding = (trx: Db, promoCodeId: string) =>
  trx('promo_redemptions as r')
    .join('transactions as t', 't.id', 'r.transaction_id')
    .where('r.promo_code_id', promoCodeId)
    .whereIn('t.status', HOLDING_STATUSES);

/** The codes themselves: written by the admin (or the referral programme), found by key, listed with their usage. */
function promoCodeRows(db: Db) {
  const lockable = dialectOf(db) === 'postgres';

  return {
    async insert(
      code: Omit<PromoCodeRecord, 'createdAt' | 'active' | 'referral'> & { createdBy: string | null; codeKey: string },
      now: Date,
      trx: Db = db,
    ): Promise<void> {
      await trx('promo_codes').insert({
        id: code.id,
        code: code.code,
        code_key: code.codeKey,
        percent_off: code.percentOff,
        amount_off: code.amountOff,
        currency: code.currency,
        duration: code.duration,
        duration_months: code.durationMonths,
        plan_ids: code.planIds ? toJson(code.planIds) : null,
        max_redemptions: code.maxRedemptions,
        once_per_customer: code.oncePerCustomer,
        starts_at: code.startsAt,
        ends_at: code.endsAt,
        active: true,
        created_by: code.createdBy,
        created_at: now,
        updated_at: now,
      });
    },

    async codeKeyTaken(codeKey: string, trx: Db = db): Promise<boolean> {
      return (await trx('promo_codes').select('id').where({ code_key: codeKey }).first()) !== undefined;
    },

    async findById(id: string, trx: Db = db): Promise<PromoCodeRecord | undefined> {
      const row = await trx('promo_codes').select('*').where({ id }).first();
      return row && toRecord(row);
    },

    /**
     * The code typed at checkout. In `trx` on PostgreSQL its row is held until `trx` ends, so two checkouts
     * counting its uses queue one behind the other (SQLite runs one transaction at a time anyway).
     */
    async findByKeyForUpdate(codeKey: string, trx: Db): Promise<PromoCodeRecord | undefined> {
      const query = trx('promo_codes').select('*').where({ code_key: codeKey });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toRecord(row);
    },

    async findByKey(codeKey: string, trx: Db = db): Promise<PromoCodeRecord | undefined> {
      const row = await trx('promo_codes').select('*').where({ code_key: codeKey }).first();
      return row && toRecord(row);
    },

    /** Every code, newest first, with how it has been used. */
    async listWithUsage(trx: Db = db): Promise<Array<PromoCodeRecord & PromoCodeUsage>> {
      const rows: Row[] = await trx('promo_codes').select('*').orderBy('created_at', 'desc').orderBy('id', 'desc');
      if (rows.length === 0) return [];
      const usage: Row[] = await trx('promo_redemptions as r')
        .join('transactions as t', 't.id', 'r.transaction_id')
        .select('r.promo_code_id')
        .select(trx.raw(`sum(case when t.status in (${HOLDING_STATUSES.map(() => '?').join(', ')}) then 1 else 0 end) as used`, [...HOLDING_STATUSES]))
        .select(trx.raw(`sum(case when t.status in (${PAID_STATUSES.map(() => '?').join(', ')}) then 1 else 0 end) as paid_count`, [...PAID_STATUSES]))
        .select(
          trx.raw(`sum(case when t.status in (${PAID_STATUSES.map(() => '?').join(', ')}) then r.discount else 0 end) as discount_total`, [...PAID_STATUSES]),
        )
        .groupBy('r.promo_code_id');
      const byCode = new Map(usage.map((row) => [row.promo_code_id as string, row]));
      return rows.map((row) => {
        const counts = byCode.get(row.id as string);
        return {
          ...toRecord(row),
          used: Number(counts?.used ?? 0),
          paidCount: Number(counts?.paid_count ?? 0),
          discountTotal: Number(counts?.discount_total ?? 0),
        };
      });
    },

    async update(id: string, patch: { active?: boolean; maxRedemptions?: number | null; endsAt?: Date | null }, now: Date, trx: Db = db): Promise<boolean> {
      const changes: Row = { updated_at: now };
      if (patch.active !== undefined) changes.active = patch.active;
      if (patch.maxRedemptions !== undefined) changes.max_redemptions = patch.maxRedemptions;
      if (patch.endsAt !== undefined) changes.ends_at = patch.endsAt;
      return (await trx('promo_codes').where({ id }).update(changes)) > 0;
    },

    async hasRedemptions(id: string, trx: Db = db): Promise<boolean> {
      return (await trx('promo_redemptions').select('id').where({ promo_code_id: id }).first()) !== undefined;
    },

    async delete(id: string, trx: Db = db): Promise<boolean> {
      return (await trx('promo_codes').where({ id }).delete()) > 0;
    },
  };
}

/** The uses of the codes: counted, written with a checkout, and kept in step with the provider's total. */
function redemptionRows(db: Db) {
  return {
    /** Uses held now, in all and by one customer. */
    async usesHeld(promoCodeId: string, userId: string, trx: Db = db): Promise<{ total: number; byUser: number }> {
      const [total, byUser] = await Promise.all([
        holding(trx, promoCodeId).count({ n: '*' }).first(),
        holding(trx, promoCodeId).where('r.user_id', userId).count({ n: '*' }).first(),
      ]);
      return { total: Number(total?.n ?? 0), byUser: Number(byUser?.n ?? 0) };
    },

    async insertRedemption(redemption: NewRedemption, now: Date, trx: Db): Promise<void> {
      await trx('promo_redemptions').insert({
        id: redemption.id,
        promo_code_id: redemption.promoCodeId,
        user_id: redemption.userId,
        transaction_id: redemption.transactionId,
        subscription_id: redemption.subscriptionId,
        amount_before: redemption.amountBefore,
        discount: redemption.discount,
        currency: redemption.currency,
        created_at: now,
      });
    },

    /** A pending checkout's total as the provider computed it: the transaction's amount, its promo note and the redemption's discount. */
    async setDiscountedTotal(transactionId: string, total: number, now: Date, trx: Db): Promise<void> {
      const redemption = await trx('promo_redemptions').select('amount_before').where({ transaction_id: transactionId }).first();
      const transaction = await trx('transactions').select('metadata', 'status').where({ id: transactionId }).first();
      if (!redemption || transaction?.status !== 'pending') return;
      const discount = Number(redemption.amount_before) - total;
      const metadata = parseJson<Record<string, unknown> & { promo?: Record<string, unknown> }>(transaction.metadata, {});
      await trx('transactions')
        .where({ id: transactionId, status: 'pending' })
        .update({
          amount: total,
          discount,
          metadata: toJson({ ...metadata, ...(metadata.promo ? { promo: { ...metadata.promo, discount } } : {}) }),
          updated_at: now,
        });
      await trx('promo_redemptions').where({ transaction_id: transactionId }).update({ discount });
    },

    /** The code a checkout's transaction was made with, and what it took off. */
    async redemptionOf(transactionId: string, trx: Db = db): Promise<{ code: string; amountBefore: number; discount: number } | undefined> {
      const row = await trx('promo_redemptions as r')
        .join('promo_codes as p', 'p.id', 'r.promo_code_id')
        .select('p.code', 'r.amount_before', 'r.discount')
        .where('r.transaction_id', transactionId)
        .first();
      return row && { code: row.code as string, amountBefore: Number(row.amount_before), discount: Number(row.discount) };
    },
  };
}

/** The promo codes' rows and their redemptions, in one repository. */
export function createPromoCodesRepo(db: Db) {
  return { ...promoCodeRows(db), ...redemptionRows(db) };
}

export type PromoCodesRepo = ReturnType<typeof createPromoCodesRepo>;
