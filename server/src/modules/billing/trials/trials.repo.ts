import type { Db } from '../../../db/knex.js';
import { toBool } from '../../../db/values.js';
import { isLockable } from '../billing-rows.js';

/**
 * Where a person's trial stands (payments.md, Trials): `user_profiles.trial_used`, and the one account the unique
 * `vpn_accounts.trial_user_id` lets them hold (a free trial's, or a paid trial's from its order on). A Telegram user
 * linked to the customer is the same person: the bot acts as that customer.
 */
export interface TrialStanding {
  used: boolean;
  /** The account holding the person's trial, if any. */
  account: { id: string; waiting: boolean; paymentConfirmed: boolean } | null;
}

export function createTrialsRepo(db: Db) {
  const lockable = isLockable(db);

  return {
    /**
     * Holds the person's row until the transaction ends, so two orders of a trial at once queue behind each other and
     * the second reads what the first wrote (PostgreSQL; SQLite has one writer anyway).
     */
    async lockPerson(userId: string, trx: Db): Promise<void> {
      if (lockable) await trx('user_profiles').select('id').where({ id: userId }).forUpdate().first();
    },

    /** The person's trial: used or not, and the account that holds it (waiting for its panel user or its payment, or made). */
    async standingOf(userId: string, trx: Db = db): Promise<TrialStanding> {
      const person = await trx('user_profiles').select('trial_used').where({ id: userId }).first();
      const row = await trx('vpn_accounts').select('id', 'status', 'subscription_url', 'payment_confirmed').where({ trial_user_id: userId }).first();
      return {
        used: toBool(person?.trial_used),
        account: row
          ? { id: row.id as string, waiting: row.status === 'suspended' && row.subscription_url === null, paymentConfirmed: toBool(row.payment_confirmed) }
          : null,
      };
    },

    /** The account that holds the person's trial now (null: none). */
    async trialAccountId(userId: string, trx: Db = db): Promise<string | null> {
      const row = await trx('vpn_accounts').select('id').where({ trial_user_id: userId }).first();
      return (row?.id as string | undefined) ?? null;
    },

    /** Whether this account is the one holding the person's trial. */
    async holdsTrial(accountId: string, userId: string, trx: Db): Promise<boolean> {
      return (await trx('vpn_accounts').select('id').where({ id: accountId, trial_user_id: userId }).first()) !== undefined;
    },

    /** The trial is the person's for good: marked with what delivers it, in its transaction. */
    async markUsed(userId: string, now: Date, trx: Db): Promise<void> {
      await trx('user_profiles').where({ id: userId }).update({ trial_used: true, updated_at: now });
    },
  };
}

export type TrialsRepo = ReturnType<typeof createTrialsRepo>;
