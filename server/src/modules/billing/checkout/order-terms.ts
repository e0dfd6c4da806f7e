import { ACCOUNT_MESSAGES } from '../../../../../shared/accounts.js';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { WALLET_MESSAGES } from '../../../../../shared/wallet.js';
import { PLAN_CHANGE_MESSAGES } from '../../../../../shared/plan-changes.js';
import type { Db } from '../../../db/knex.js';
import { AppError, notFound } from '../../../errors.js';
import type { PlanRecord } from '../../plans/index.js';
import { isPaidTrial, isPurchasable } from '../../plans/index.js';
import type { AppliedPromo } from '../../promo-codes/index.js';
import { creditFor, RENEWAL_NOTE } from '../../credit/index.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutKind, TrialConversion } from '../billing.repo.js';
import { assertTrialFree, conversionOf, trialToConvert } from '../trials/trial-rules.js';
import type { CheckoutDeps } from './checkout-deps.js';

/** What every checkout settles before anything is written: the plan and account, the discount, the credit, capacity. */

/** The wallet does not cover an order: what is missing, for the dialog to offer a top-up of it. */
export const insufficientBalance = (needed: number) => new AppError(409, 'insufficient_balance', WALLET_MESSAGES.insufficient, { needed });

/**
 * What an order asks of the customer: the plan's price, or its price after the promo code, less the referral credit
 * or wallet balance it spends (minor units of the order's currency). The one place an order's total is computed.
 */
export function orderTotal(plan: Pick<PlanRecord, 'price'>, promo: Pick<AppliedPromo, 'total'> | null, spent = 0): number {
  return (promo?.total ?? plan.price) - spent;
}

/** What the plan costs this customer with the chosen discount, before any credit (no use of the code is taken). */
export async function quotedTotal(deps: CheckoutDeps, user: UserProfile, plan: PlanRecord, chosen: ChosenPromo | null): Promise<number> {
  return chosen ? (await deps.promos.quote(user.id, plan, chosen.promoCode, { referral: chosen.referral })).total : orderTotal(plan, null);
}

/** The discount an order is made with: a typed code, or (`referral`) the one the customer was referred with. */
export interface ChosenPromo {
  promoCode: string;
  referral?: boolean;
}

/**
 * No charge without capacity: some server that covers the plan answers right now (the trial's rule,
 * asked before the customer pays rather than after).
 */
export async function assertCanProvision(deps: CheckoutDeps, plan: PlanRecord): Promise<void> {
  const candidates = await deps.provisioner.candidateServers(plan);
  const answers = candidates.map((server) => deps.servers.driverFor(server).listServices());
  const reachable =
    answers.length > 0 &&
    (await Promise.any(answers).then(
      () => true,
      () => false,
    ));
  if (!reachable) {
    deps.log.warn({ planId: plan.id, servers: candidates.length }, 'checkout refused: no server that covers the plan answers');
    throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
  }
}

/**
 * What an order is: the plan to charge for, and the account it goes to (a renewal's; a purchase's trial account it
 * converts, billing/trials). `trial`: the trial with a price, refused already when the person has had it.
 */
export interface ResolvedOrder {
  plan: PlanRecord;
  kind: CheckoutKind;
  accountId: string | null;
  trial: boolean;
  convertsTrial: TrialConversion | null;
}

/** A purchase of `plan`: the trial with a price (once per person), or a plan that may go to the customer's running trial. */
async function resolvePurchase(deps: CheckoutDeps, user: UserProfile, plan: PlanRecord, trialPlanId: string | null): Promise<ResolvedOrder> {
  if (isPaidTrial(plan, trialPlanId)) {
    await assertTrialFree(deps.trials, user.id);
    return { plan, kind: 'purchase', accountId: null, trial: true, convertsTrial: null };
  }
  if (!isPurchasable(plan, trialPlanId)) throw new AppError(400, 'not_purchasable', 'This plan is free: claim it from your dashboard instead.');
  const trialAccount = await trialToConvert(deps, {
    userId: user.id,
    plan,
    servers: () => deps.servers.listServerRecords(),
    at: deps.clock(),
    isTrialPlan: (account) => account.plan?.isTrial === true || (account.planId !== null && account.planId === trialPlanId),
  });
  return { plan, kind: 'purchase', accountId: trialAccount?.id ?? null, trial: false, convertsTrial: trialAccount ? conversionOf(trialAccount) : null };
}

/** The plan to charge for, and the account a renewal extends (or a purchase converts: resolvePurchase). */
export async function resolveOrder(deps: CheckoutDeps, user: UserProfile, body: { planId: string } | { accountId: string }): Promise<ResolvedOrder> {
  const { trialPlanId } = await deps.settings.getAppSettings();
  if ('planId' in body) {
    const plan = await deps.plans.findById(body.planId);
    if (!plan || plan.status !== 'active') throw notFound(BILLING_MESSAGES.planNotFound);
    return resolvePurchase(deps, user, plan, trialPlanId);
  }
  const account = await deps.accounts.findForUser(body.accountId, user.id);
  if (!account) throw notFound('Account not found');
  if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is still waiting for its first payment.');
  // A plan that renews is not paid by hand as well; but one renewed here whose card was declined may be (its
  // next try finds the period paid and stops: store-renewals.ts).
  const renewing = await deps.billing.renewingSubscriptionOf(account.id);
  if (renewing && !(renewing.metadata.renewed_by === 'store' && renewing.status === 'past_due'))
    throw new AppError(409, 'already_renews', BILLING_MESSAGES.alreadyRenews);
  // A plan change waiting for its payment would end the period a renewal paid meanwhile bought.
  const open = await deps.billing.listPendingForAccount(account.id);
  if (await anyPlanChange(deps, open)) throw new AppError(409, 'change_in_progress', PLAN_CHANGE_MESSAGES.inProgress);
  // A downgrade waiting for the paid end: the next period is the new plan's (start-plan-change.ts).
  const planId = account.nextPlan?.planId ?? account.planId;
  const plan = planId ? await deps.plans.findById(planId) : undefined;
  if (!plan || !isPurchasable(plan, trialPlanId))
    throw new AppError(409, 'not_renewable', "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.");
  return { plan, kind: 'renewal', accountId: account.id, trial: false, convertsTrial: null };
}

/** Whether one of these open orders is a plan change. */
async function anyPlanChange(deps: CheckoutDeps, open: Array<{ subscriptionId: string }>): Promise<boolean> {
  for (const order of open) if ((await deps.billing.findSubscription(order.subscriptionId))?.metadata.kind === 'change') return true;
  return false;
}

/**
 * The discount of the order: the code the customer typed, else the one they were referred with (their first payment's
 * discount, while it can be used: a referral discount that cannot is simply not given, never refused). The trial
 * (`trial`) is not the first payment a referral discounts: only a typed code applies to it.
 */
export async function choosePromo(
  deps: CheckoutDeps,
  user: UserProfile,
  plan: PlanRecord,
  typed: string | undefined,
  trial = false,
): Promise<ChosenPromo | null> {
  if (typed) return { promoCode: typed };
  if (trial) return null;
  const referral = await deps.referralDiscount?.(user.id);
  if (!referral) return null;
  try {
    await deps.promos.quote(user.id, plan, referral, { referral: true });
    return { promoCode: referral, referral: true };
  } catch (err) {
    if (err instanceof AppError && err.code === 'promo_invalid') return null;
    throw err;
  }
}

/** The customer's referral credit spent on a one-off order of `total`, in the order's transaction (what it spent). */
export const spendCredit = (
  deps: CheckoutDeps,
  trx: Db,
  user: UserProfile,
  order: { currency: string; total: number; transactionId: string; leaveCharge: boolean; kind: CheckoutKind },
) => {
  const { kind, ...spent } = order;
  return deps.credit
    ? deps.credit.spend(trx, { userId: user.id, ...spent, ...(kind === 'renewal' ? { note: RENEWAL_NOTE } : {}) }, deps.clock())
    : Promise.resolve(0);
};

/** A referral's extra days on the customer's first order paid once; none on the trial (they wait for the first plan bought). */
export const bonusDaysOf = async (deps: CheckoutDeps, user: UserProfile, trial = false) => (trial ? 0 : ((await deps.referralBonusDays?.(user.id)) ?? 0));

/** What the customer's available credit would pay of a one-off order of `total` now (nothing is spent). */
export const creditOf = async (deps: CheckoutDeps, user: UserProfile, currency: string, total: number) =>
  deps.credit ? creditFor(total, await deps.credit.available(user.id, currency, deps.clock())) : 0;
