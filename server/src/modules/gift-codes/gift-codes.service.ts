import { randomInt, randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import {
  GIFT_CODE_ALPHABET,
  GIFT_CODE_LENGTH,
  GIFT_MESSAGES,
  giftCodeKey,
  type AdminGiftBatch,
  type CreateGiftCodesBody,
  type CheckGiftCodeBody,
  type GiftBatchCreated,
  type GiftChecked,
  type GiftRedeemed,
  type RedeemGiftCodeBody,
} from '../../../../shared/gift-codes.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AccountsRepo } from '../accounts/index.js';
import type { AuditRepo } from '../audit/index.js';
import type { BillingRepo, CheckoutKind } from '../billing/index.js';
import { newOrderIds, type OrderRows } from '../billing/index.js';
import type { PlanRecord, PlansRepo } from '../plans/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UserProfile, Actor } from '../users/index.js';
import type { GiftBatchRecord, GiftCodesRepo } from './gift-codes.repo.js';

/** A new code: sixteen letters of the alphabet from the system's CSPRNG, in groups of four. */
function newCode(): { code: string; codeKey: string } {
  let key = '';
  for (let i = 0; i < GIFT_CODE_LENGTH; i += 1) key += GIFT_CODE_ALPHABET[randomInt(GIFT_CODE_ALPHABET.length)];
  return { code: key.match(/.{4}/g)!.join('-'), codeKey: key };
}

const toAdminBatch = (batch: GiftBatchRecord & { redeemed: number; revoked: number }): AdminGiftBatch => ({
  id: batch.id,
  planId: batch.planId,
  planName: batch.planName,
  count: batch.count,
  redeemed: batch.redeemed,
  revoked: batch.revoked,
  note: batch.note,
  createdAt: batch.createdAt.toISOString(),
});

/** Gift codes: batches the admin issues for a plan, and the customer's redemption of one for an account or its days. */
export function createGiftCodesService(deps: {
  db: Db;
  repo: GiftCodesRepo;
  plans: PlansRepo;
  accounts: AccountsRepo;
  billing: BillingRepo;
  settings: SettingsService;
  orders: OrderRows;
  audit: AuditRepo;
  clock: Clock;
  /** Throws the checkout's 503 when no server that covers the plan answers now (a new account needs one). */
  canProvision: (plan: PlanRecord) => Promise<void>;
}) {
  const { repo, clock } = deps;

  /** The order a code makes: a new account on its plan, or the plan's days on one of the caller's accounts on that plan. */
  async function orderFor(
    user: UserProfile,
    plan: PlanRecord,
    accountId: string | undefined,
  ): Promise<{ kind: CheckoutKind; renewedAccountId: string | null }> {
    if (!accountId) {
      await deps.canProvision(plan);
      return { kind: 'purchase', renewedAccountId: null };
    }
    const account = await deps.accounts.findForUser(accountId, user.id);
    if (!account) throw notFound('Account not found');
    if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is still waiting for its first payment.');
    if (account.planId !== plan.id) throw new AppError(409, 'gift_other_plan', GIFT_MESSAGES.otherPlan);
    // Days given by hand on top of a subscription that renews by itself would be paid twice over.
    if (await deps.billing.renewingSubscriptionOf(account.id)) throw new AppError(409, 'already_renews', BILLING_MESSAGES.alreadyRenews);
    return { kind: 'renewal', renewedAccountId: account.id };
  }

  /** An unused, unrevoked code and its plan (still there), or the error that says why not. */
  async function usableGift(code: string) {
    const gift = await repo.findByKey(giftCodeKey(code));
    if (!gift || gift.revokedAt) throw new AppError(404, 'gift_code_not_found', GIFT_MESSAGES.notFound);
    if (gift.redeemedAt) throw new AppError(409, 'gift_code_used', GIFT_MESSAGES.used);
    const plan = gift.planId ? await deps.plans.findById(gift.planId) : undefined;
    if (!plan) throw new AppError(409, 'gift_plan_unavailable', GIFT_MESSAGES.planGone);
    return { gift, plan };
  }

  return {
    async createBatch(actor: Actor, body: CreateGiftCodesBody): Promise<GiftBatchCreated> {
      const plan = await deps.plans.findById(body.planId);
      if (!plan) throw validationFailed({ planId: 'No such plan' }, 'No such plan');
      const batch = { id: randomUUID(), planId: plan.id, planName: plan.name, count: body.count, note: body.note ?? null, createdAt: clock() };
      const codes = Array.from({ length: body.count }, () => ({ id: randomUUID(), ...newCode() }));
      await deps.db.transaction(async (trx) => {
        await repo.insertBatch({ ...batch, createdBy: actor.id }, codes, trx);
        await deps.audit.record(
          {
            actorId: actor.id,
            actorEmail: actor.email,
            action: 'gift_codes.create',
            targetType: 'gift_code_batch',
            targetId: batch.id,
            details: { planId: plan.id, planName: plan.name, count: body.count, note: body.note ?? null },
            ip: actor.ip ?? null,
            now: batch.createdAt,
          },
          trx,
        );
      });
      return { batch: toAdminBatch({ ...batch, redeemed: 0, revoked: 0 }), codes: codes.map((code) => code.code) };
    },

    async listBatches(): Promise<AdminGiftBatch[]> {
      return (await repo.listBatches()).map(toAdminBatch);
    },

    /** The batch's codes as CSV (code, plan, status, redeemed by, redeemed at), for the operator to hand out. */
    async batchCsv(batchId: string): Promise<{ filename: string; csv: string }> {
      const batch = await repo.findBatch(batchId);
      if (!batch) throw notFound('Gift code batch not found');
      const codes = await repo.batchCodes(batchId);
      const rows = codes.map((code) => ({
        code: code.code,
        plan: batch.planName,
        status: code.redeemedAt ? 'redeemed' : code.revokedAt ? 'revoked' : 'unused',
        redeemed_by: code.redeemedByEmail ?? '',
        redeemed_at: code.redeemedAt?.toISOString() ?? '',
      }));
      const csv = Papa.unparse(rows, { columns: ['code', 'plan', 'status', 'redeemed_by', 'redeemed_at'], escapeFormulae: true, newline: '\r\n' });
      return { filename: `gift-codes-${batch.createdAt.toISOString().slice(0, 10)}-${batch.id.slice(0, 8)}.csv`, csv: `${csv}\r\n` };
    },

    /** The batch's unused codes stop working (redeemed ones are kept as they are). */
    async revokeUnused(actor: Actor, batchId: string): Promise<AdminGiftBatch> {
      if (!(await repo.findBatch(batchId))) throw notFound('Gift code batch not found');
      const revoked = await repo.revokeUnused(batchId, clock());
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'gift_codes.revoke',
        targetType: 'gift_code_batch',
        targetId: batchId,
        details: { revoked },
        ip: actor.ip ?? null,
        now: clock(),
      });
      return toAdminBatch((await repo.listBatches()).find((batch) => batch.id === batchId)!);
    },

    /**
     * What an unused code gives, before it is redeemed: its plan's name, and the caller's accounts it can add its
     * days to (on that plan, not suspended, not renewing by themselves), as redeem would take them.
     */
    async check(user: UserProfile, body: CheckGiftCodeBody): Promise<GiftChecked> {
      const { plan } = await usableGift(body.code);
      const onPlan = await repo.accountIdsOnPlan(user.id, plan.id);
      const renewing = await Promise.all(onPlan.map((id) => deps.billing.renewingSubscriptionOf(id)));
      return { planName: plan.name, accountIds: onPlan.filter((_, i) => !renewing[i]) };
    },

    /**
     * Redeems a code once: the claim of its row and the free order it makes are one database transaction, so two
     * redemptions at once make one order and the other is 409; anything refused leaves the code unused.
     */
    async redeem(user: UserProfile, body: RedeemGiftCodeBody): Promise<GiftRedeemed> {
      const { gift, plan } = await usableGift(body.code);
      const { kind, renewedAccountId } = await orderFor(user, plan, body.accountId);
      const { currency } = await deps.settings.getAppSettings();
      const ids = newOrderIds(renewedAccountId);
      let sessionId = '';
      await deps.db.transaction(async (trx) => {
        const now = clock();
        if (!(await repo.claim(gift.id, { userId: user.id, transactionId: ids.transactionId }, now, trx)))
          throw new AppError(409, 'gift_code_used', GIFT_MESSAGES.used);
        sessionId = await deps.orders.placeFree(trx, { user, plan, kind, currency, ids, giftCode: gift.code });
        await deps.audit.record(
          {
            actorId: user.id,
            actorEmail: user.email,
            action: 'gift_code.redeem',
            targetType: 'gift_code',
            targetId: gift.id,
            details: { batchId: gift.batchId, planId: plan.id, transactionId: ids.transactionId, accountId: ids.accountId, kind },
            now,
          },
          trx,
        );
      });
      return { sessionId, subscriptionId: ids.subscriptionId, accountId: ids.accountId, planId: plan.id, planName: plan.name, renewal: kind === 'renewal' };
    },
  };
}

export type GiftCodesService = ReturnType<typeof createGiftCodesService>;
