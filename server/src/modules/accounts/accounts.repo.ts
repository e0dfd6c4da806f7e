import type { VpnAccountStatus } from '../../../../shared/accounts.js';
import type { RegionNameTranslations } from '../../../../shared/region-names.js';
import type { PlanStatus } from '../../../../shared/plans.js';
import type { PlanNames } from '../../../../shared/plan-translations.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toDate, toJson } from '../../db/values.js';
import { accountReads } from './account-reads.repo.js';
import { provisioningRows } from './account-provisioning.repo.js';
import { usageColumns, type AccountUsage } from './panel-values.js';

export interface AccountRecord {
  id: string;
  userId: string;
  masterServerId: string | null;
  /** While the row waits: the server a panel user is being (or was last) created on, written before the panel is called. */
  provisioningServerId: string | null;
  planId: string | null;
  username: string;
  status: VpnAccountStatus;
  expireDate: Date | null;
  /** 0 = unlimited. */
  dataLimitBytes: number;
  subToken: string;
  subscriptionUrl: string | null;
  usedTrafficBytes: number;
  links: string[];
  usageCheckedAt: Date | null;
  createdAt: Date;
  /** Its server as customers may see it (public region name, never the internal one). */
  server: { name: string; locationNumber: number | null; nameTranslations: RegionNameTranslations; locations: string } | null;
  planName: string | null;
  /** The plan it was created from, while that plan exists (`graceDays`: how long it runs after its paid end when nothing renews it). */
  /** `names`: the plan's name in the languages it is translated into (`planName` is the English). */
  plan: { id: string; status: PlanStatus; price: number; isTrial: boolean; graceDays: number; names: PlanNames } | null;
  /** A payment for it has succeeded: while it waits, it is being set up, not waiting to be paid (kept on the row by triggers, migration 030). */
  paymentConfirmed: boolean;
  /** How many devices may use it (its plan's, when bought or renewed, and its add-ons'); null = unlimited. */
  deviceLimit: number | null;
  /** The devices its live add-ons add to its plan's limit (in `deviceLimit`). */
  extraDevices: number;
  /** The end of its latest paid period that still counts (the paid-period ledger, kept on the row by triggers: migration 030); null when nothing is paid. */
  paidUntil: Date | null;
  /** Its customer set it to renew itself from their balance before it ends (wallet-renewals.ts). */
  walletAutoRenew: boolean;
  /** A downgrade waiting for the paid end (plan changes, set by the operator to wait): the plan it switches to, and when. */
  nextPlan: { planId: string; at: Date } | null;
}

/** The `metadata` column: the panel's last answer of usage and links. */
export type { AccountMetadata } from './panel-values.js';

/** A server as customers may see it (public region name, never the internal one), by id. */
export type PublicServerNames = Map<string, NonNullable<AccountRecord['server']>>;

/** A plan as an account shows it (its name, and what decides a renewal), by id. */
export type PlanSummaries = Map<string, { name: string; plan: NonNullable<AccountRecord['plan']> }>;

export interface PendingAccount {
  id: string;
  userId: string;
  planId: string | null;
  username: string;
  subToken: string;
  /** Set for a trial: the unique index allows one per user. */
  trialUserId: string | null;
  /** Its plan's device limit; null or left out = unlimited (admin-made accounts). */
  deviceLimit?: number | null;
}

/** A waiting row the sweep may repair or remove (see `listStuck`). */
export interface StuckAccount {
  id: string;
  userId: string;
  username: string;
  provisioningServerId: string | null;
  /** Set for a trial: adopting it marks this user's trial used. */
  trialUserId: string | null;
}

export interface ProvisionedFields extends AccountUsage {
  masterServerId: string;
  username: string;
  subscriptionUrl: string;
}

/** The accounts' rows: their reads (account-reads.repo.ts), the rows of accounts being made (account-provisioning.repo.ts), and the rest here. */
export function createAccountsRepo(db: Db) {
  return {
    ...accountReads(db),
    ...provisioningRows(db),

    /** Auto-renew from the balance on or off; false when the account is not the user's. */
    async setWalletAutoRenew(id: string, userId: string, enabled: boolean, now: Date): Promise<boolean> {
      return (await db('vpn_accounts').where({ id, user_id: userId }).update({ wallet_auto_renew: enabled, updated_at: now })) > 0;
    },

    /** A plan change: the account is on `planId` from now, with its device limit; a downgrade that waited is done. */
    async setPlan(id: string, plan: { planId: string; deviceLimit: number | null }, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts')
        .where({ id })
        .update({ plan_id: plan.planId, device_limit: plan.deviceLimit, next_plan_id: null, next_plan_at: null, updated_at: now });
    },

    /** A downgrade set to wait for the paid end (null: none waits any more). */
    async setNextPlan(id: string, next: { planId: string; at: Date } | null, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts')
        .where({ id })
        .update({ next_plan_id: next?.planId ?? null, next_plan_at: next?.at ?? null, updated_at: now });
    },

    /** Accounts whose waiting downgrade is due, oldest first. */
    async listNextPlansDue(now: Date, limit: number): Promise<Array<{ id: string; planId: string; at: Date }>> {
      const rows = await db('vpn_accounts').where('next_plan_at', '<=', now).whereNotNull('next_plan_id').orderBy('next_plan_at').limit(limit);
      return rows.map((row: Record<string, unknown>) => ({ id: row.id as string, planId: row.next_plan_id as string, at: toDate(row.next_plan_at) }));
    },

    /** A renewal onto a plan brings that plan's device limit (null = unlimited). */
    async setDeviceLimit(id: string, deviceLimit: number | null, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts').where({ id }).update({ device_limit: deviceLimit, updated_at: now });
    },

    async updateUsage(id: string, usage: AccountUsage, now: Date, trx: Db = db): Promise<void> {
      await trx('vpn_accounts')
        .where({ id })
        .update({
          ...usageColumns(usage),
          usage_checked_at: now,
          updated_at: now,
        });
    },

    async remove(id: string): Promise<void> {
      await db('vpn_accounts').where({ id }).delete();
    },

    async insertLog(
      entry: { accountId: string | null; userId: string | null; step: string; status: 'success' | 'failure'; details: Record<string, unknown>; now: Date },
      trx: Db = db,
    ): Promise<void> {
      await trx('vpn_account_logs').insert({
        vpn_account_id: entry.accountId,
        user_id: entry.userId,
        step: entry.step,
        status: entry.status,
        details: toJson(entry.details),
        created_at: entry.now,
      });
    },

    async listLogs(limit: number) {
      const rows = await db('vpn_account_logs')
        .select('*')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map((row) => ({
        id: Number(row.id),
        step: row.step as string,
        status: row.status === 'success' ? ('success' as const) : ('failure' as const),
        details: parseJson<Record<string, unknown>>(row.details, {}),
        vpnAccountId: (row.vpn_account_id as string | null) ?? null,
        userId: (row.user_id as string | null) ?? null,
        createdAt: toDate(row.created_at).toISOString(),
      }));
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
