import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/knex.js';
import { toDate, toDateOrNull } from '../../../db/values.js';

/** A payment method a customer allowed to be charged again (YooKassa's saved card). */
export interface SavedMethodRecord {
  id: string;
  userId: string;
  provider: string;
  providerAccountId: string | null;
  /** The provider's id of it: what a charge names. */
  methodRef: string;
  title: string;
  createdAt: Date;
  /** The customer removed it: it is never charged again. */
  removedAt: Date | null;
}

const toRecord = (row: Record<string, unknown>): SavedMethodRecord => ({
  id: row.id as string,
  userId: row.user_id as string,
  provider: row.provider as string,
  providerAccountId: (row.provider_account_id as string | null) ?? null,
  methodRef: row.method_ref as string,
  title: row.title as string,
  createdAt: toDate(row.created_at),
  removedAt: toDateOrNull(row.removed_at),
});

/** Saved payment methods (migration 038). */
export function createSavedMethodsRepo(db: Db) {
  return {
    /** Keeps a method the first time a payment saved it; the same method again is the row already kept. */
    async keep(
      method: { userId: string; provider: string; providerAccountId: string | null; methodRef: string; title: string },
      now: Date,
      trx: Db,
    ): Promise<SavedMethodRecord> {
      await trx('saved_payment_methods')
        .insert({
          id: randomUUID(),
          user_id: method.userId,
          provider: method.provider,
          provider_account_id: method.providerAccountId,
          method_ref: method.methodRef,
          title: method.title,
          created_at: now,
        })
        .onConflict(['provider', 'method_ref'])
        .ignore();
      return toRecord(await trx('saved_payment_methods').select('*').where({ provider: method.provider, method_ref: method.methodRef }).first());
    },

    async findById(id: string, trx: Db = db): Promise<SavedMethodRecord | undefined> {
      const row = await trx('saved_payment_methods').select('*').where({ id }).first();
      return row && toRecord(row);
    },

    /** The user's methods still kept, newest first. */
    async listForUser(userId: string): Promise<SavedMethodRecord[]> {
      return (await db('saved_payment_methods').select('*').where({ user_id: userId }).whereNull('removed_at').orderBy('created_at', 'desc')).map(toRecord);
    },

    /** The live plans that renew with the method (active or past_due). */
    async renewingWith(id: string, trx: Db): Promise<string[]> {
      return (await trx('subscriptions').select('id').where({ saved_method_id: id, billing: 'recurring' }).whereIn('status', ['active', 'past_due'])).map(
        (row: { id: string }) => row.id,
      );
    },

    /** The user's method, removed now (never charged again); false when it is not theirs or was removed already. */
    async remove(id: string, userId: string, now: Date, trx: Db): Promise<boolean> {
      return (await trx('saved_payment_methods').where({ id, user_id: userId }).whereNull('removed_at').update({ removed_at: now })) > 0;
    },
  };
}

export type SavedMethodsRepo = ReturnType<typeof createSavedMethodsRepo>;
