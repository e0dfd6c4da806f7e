import {
  type CreditMovement,
  REFERRAL_CREDIT_KINDS,
  type ReferralCreditKind,
  type ReferralHoldReason,
  type ReferralSettings,
  type ReferralStatus,
  type ReferralTerms,
} from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toJson } from '../../db/values.js';
import { createWalletLedgerRepo, type WalletLedgerRepo } from '../credit/index.js';
import { referralCheckRows } from './referral-checks.repo.js';
import { referralAdminRows, referralRows } from './referral-rows.repo.js';

const SETTINGS_ID = 'referral_programme';

export interface ReferralRecord {
  id: string;
  referrerId: string;
  referredId: string;
  code: string;
  status: ReferralStatus;
  holdReason: ReferralHoldReason | null;
  terms: ReferralTerms;
  firstPaidAt: Date | null;
  createdAt: Date;
}

export type { CreditRow, NewCredit } from '../credit/index.js';

/** The programme's settings, the referrers' links, and the movements the referrals page shows. */
function programmeRows(db: Db, ledger: WalletLedgerRepo) {
  return {
    /** The latest movements, for the referrals page (the wallet page shows them all, with its own kinds). */
    async movements(userId: string, limit: number): Promise<CreditMovement[]> {
      return (await ledger.latest(userId, limit, REFERRAL_CREDIT_KINDS)).map((row) => ({
        id: String(row.id),
        kind: row.kind as ReferralCreditKind,
        amount: row.amount,
        currency: row.currency,
        availableAt: row.availableAt.toISOString(),
        createdAt: row.createdAt.toISOString(),
        note: row.note ?? null,
      }));
    },

    async getSettings(): Promise<Partial<ReferralSettings>> {
      const row = await db('settings').select('value').where({ id: SETTINGS_ID }).first();
      return parseJson<Partial<ReferralSettings>>(row?.value, {});
    },

    async saveSettings(value: ReferralSettings, now: Date): Promise<void> {
      await db('settings')
        .insert({ id: SETTINGS_ID, value: toJson(value), updated_at: now })
        .onConflict('id')
        .merge(['value', 'updated_at']);
    },

    async findLinkCode(userId: string): Promise<string | undefined> {
      const row = await db('referral_links').select('code').where({ user_id: userId }).first();
      return row?.code as string | undefined;
    },

    /** Keeps `code` as the user's link unless they have one (or the code is taken): true when it was kept. */
    async insertLink(userId: string, code: string, now: Date): Promise<boolean> {
      const inserted = await db('referral_links').insert({ user_id: userId, code, created_at: now }).onConflict().ignore().returning('user_id');
      return inserted.length > 0;
    },

    async findReferrerByCode(code: string): Promise<{ userId: string; code: string } | undefined> {
      const row = await db('referral_links').select('user_id', 'code').whereRaw('upper(code) = ?', [code.toUpperCase()]).first();
      return row && { userId: row.user_id as string, code: row.code as string };
    },
  };
}

/** Referral links, referrals and the referrers' credit ledger. */
export function createReferralsRepo(db: Db) {
  const ledger = createWalletLedgerRepo(db);

  return {
    ...ledger,
    ...programmeRows(db, ledger),
    ...referralRows(db),
    ...referralAdminRows(db),
    ...referralCheckRows(db),
  };
}

export type ReferralsRepo = ReturnType<typeof createReferralsRepo>;
