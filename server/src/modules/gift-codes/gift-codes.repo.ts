import type { Db } from '../../db/knex.js';
import { toDate, toDateOrNull } from '../../db/values.js';

export interface GiftBatchRecord {
  id: string;
  planId: string | null;
  planName: string;
  count: number;
  note: string | null;
  createdAt: Date;
}

export interface GiftCodeRecord {
  id: string;
  batchId: string;
  code: string;
  redeemedBy: string | null;
  redeemedAt: Date | null;
  revokedAt: Date | null;
}

type Row = Record<string, unknown>;

const toCode = (row: Row): GiftCodeRecord => ({
  id: row.id as string,
  batchId: row.batch_id as string,
  code: row.code as string,
  redeemedBy: (row.redeemed_by as string | null) ?? null,
  redeemedAt: toDateOrNull(row.redeemed_at),
  revokedAt: toDateOrNull(row.revoked_at),
});

/** Rows per insert: a batch of 1,000 codes is ten statements, well under SQLite's limit of bound values. */
const CHUNK = 100;

export function createGiftCodesRepo(db: Db) {
  return {
    async insertBatch(
      batch: GiftBatchRecord & { createdBy: string | null },
      codes: Array<{ id: string; code: string; codeKey: string }>,
      trx: Db,
    ): Promise<void> {
      await trx('gift_code_batches').insert({
        id: batch.id,
        plan_id: batch.planId,
        plan_name: batch.planName,
        count: batch.count,
        note: batch.note,
        created_by: batch.createdBy,
        created_at: batch.createdAt,
      });
      for (let start = 0; start < codes.length; start += CHUNK) {
        await trx('gift_codes').insert(
          codes.slice(start, start + CHUNK).map((code) => ({ id: code.id, batch_id: batch.id, code: code.code, code_key: code.codeKey })),
        );
      }
    },

    /** Every batch, newest first, with how many of its codes were redeemed and revoked. */
    async listBatches(): Promise<Array<GiftBatchRecord & { redeemed: number; revoked: number }>> {
      const rows: Row[] = await db('gift_code_batches as b')
        .leftJoin('gift_codes as c', 'c.batch_id', 'b.id')
        .select('b.id', 'b.plan_id', 'b.plan_name', 'b.count', 'b.note', 'b.created_at')
        .select(db.raw('sum(case when c.redeemed_at is not null then 1 else 0 end) as redeemed'))
        .select(db.raw('sum(case when c.revoked_at is not null and c.redeemed_at is null then 1 else 0 end) as revoked'))
        .groupBy('b.id', 'b.plan_id', 'b.plan_name', 'b.count', 'b.note', 'b.created_at')
        .orderBy('b.created_at', 'desc')
        .orderBy('b.id', 'desc');
      return rows.map((row) => ({
        id: row.id as string,
        planId: (row.plan_id as string | null) ?? null,
        planName: row.plan_name as string,
        count: Number(row.count),
        note: (row.note as string | null) ?? null,
        createdAt: toDate(row.created_at),
        redeemed: Number(row.redeemed ?? 0),
        revoked: Number(row.revoked ?? 0),
      }));
    },

    async findBatch(id: string): Promise<GiftBatchRecord | undefined> {
      const row = await db('gift_code_batches').select('*').where({ id }).first();
      return (
        row && {
          id: row.id,
          planId: row.plan_id ?? null,
          planName: row.plan_name,
          count: Number(row.count),
          note: row.note ?? null,
          createdAt: toDate(row.created_at),
        }
      );
    },

    /** A batch's codes in the order they were made, with who redeemed each (their e-mail). */
    async batchCodes(batchId: string): Promise<Array<GiftCodeRecord & { redeemedByEmail: string | null }>> {
      const rows: Row[] = await db('gift_codes as c')
        .leftJoin('user_profiles as u', 'u.id', 'c.redeemed_by')
        .select('c.*', 'u.email as redeemed_by_email')
        .where('c.batch_id', batchId)
        .orderBy('c.code');
      return rows.map((row) => ({ ...toCode(row), redeemedByEmail: (row.redeemed_by_email as string | null) ?? null }));
    },

    async findByKey(codeKey: string, trx: Db = db): Promise<(GiftCodeRecord & { planId: string | null }) | undefined> {
      const row = await trx('gift_codes as c')
        .join('gift_code_batches as b', 'b.id', 'c.batch_id')
        .select('c.*', 'b.plan_id')
        .where('c.code_key', codeKey)
        .first();
      return row && { ...toCode(row), planId: (row.plan_id as string | null) ?? null };
    },

    /** The ids of `userId`'s accounts on `planId` that are not waiting for their first payment (suspended), oldest first. */
    async accountIdsOnPlan(userId: string, planId: string): Promise<string[]> {
      const rows: { id: string }[] = await db('vpn_accounts')
        .select('id')
        .where({ user_id: userId, plan_id: planId })
        .whereNot('status', 'suspended')
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map((row) => row.id);
    },

    /** Takes the code for `userId` unless it was taken or revoked meanwhile: whether this call took it. */
    async claim(id: string, claim: { userId: string; transactionId: string }, now: Date, trx: Db): Promise<boolean> {
      const changed = await trx('gift_codes')
        .where({ id })
        .whereNull('redeemed_at')
        .whereNull('revoked_at')
        .update({ redeemed_by: claim.userId, redeemed_at: now, transaction_id: claim.transactionId });
      return changed > 0;
    },

    /** The batch's codes nobody has redeemed stop working; how many. */
    async revokeUnused(batchId: string, now: Date): Promise<number> {
      return db('gift_codes').where({ batch_id: batchId }).whereNull('redeemed_at').whereNull('revoked_at').update({ revoked_at: now });
    },
  };
}

export type GiftCodesRepo = ReturnType<typeof createGiftCodesRepo>;
