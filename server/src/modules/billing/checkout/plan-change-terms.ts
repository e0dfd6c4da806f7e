import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { STARS_CURRENCY } from '../../../../../shared/billing-schemas.js';
import { DAY_MS } from '../../../../../shared/constants.js';
import { PLAN_CHANGE_MESSAGES, type PlanChangeQuote } from '../../../../../shared/plan-changes.js';
import type { Db } from '../../../db/knex.js';
import { AppError, notFound } from '../../../errors.js';
import { expiryAfterDays, type AccountRecord } from '../../accounts/index.js';
import { planAllowsServer } from '../../../../../shared/plan-servers.js';
import { isPurchasable, type PlanRecord } from '../../plans/index.js';
import type { ServerRecord } from '../../servers/index.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutDeps } from './checkout-deps.js';

/**
 * What switching an account to another plan would do now (issue 55): the unused part of what was paid for it, from
 * the paid-period ledger to the whole day, credited against the new plan's price. The one place its terms are
 * computed: the quote shows them, and the change recomputes them under the account's lock before it writes anything.
 */

export interface PlanChangeTerms {
  account: AccountRecord;
  plan: PlanRecord;
  quote: PlanChangeQuote;
}

/** The unused paid time of the account from `now`, to the nearest whole day, and what it is worth (minor units of `currency`, rounded down). */
export async function unusedPaidTime(
  deps: Pick<CheckoutDeps, 'billing' | 'periods'>,
  accountId: string,
  currency: string,
  now: Date,
  trx: Db,
): Promise<{ credit: number; creditDays: number; paidEnd: Date | null }> {
  const periods = (await deps.periods.listForAccount(accountId, trx)).filter((period) => !period.voidedAt && period.endsAt > now);
  let credit = 0;
  let creditDays = 0;
  for (const period of periods) {
    const transaction = await deps.billing.findTransaction(period.transactionId, trx);
    if (!transaction) continue;
    // Paid in another currency (the store's changed since, or Telegram Stars): its worth here is not known.
    if (transaction.currency !== currency) throw new AppError(409, 'currency_changed', PLAN_CHANGE_MESSAGES.otherCurrency);
    // What it was paid with: money, and credit or balance spent on it; less what was given back.
    const paid = Math.max(0, transaction.amount + (transaction.metadata.credit_spent ?? 0) - transaction.amountRefunded);
    const lengthMs = period.endsAt.getTime() - period.startsAt.getTime();
    // To the nearest whole day (never more than the period has).
    const days = Math.round((period.endsAt.getTime() - Math.max(period.startsAt.getTime(), now.getTime())) / DAY_MS);
    if (lengthMs <= 0 || days <= 0) continue;
    creditDays += days;
    credit += Math.floor((paid * days * DAY_MS) / lengthMs);
  }
  return { credit, creditDays, paidEnd: await deps.periods.latestEnd(accountId, trx) };
}

/**
 * Refuses, with why, an account that cannot change to `plan` now (before anything is computed). `bySubscription`: the
 * change is made by the card subscription that renews the account (card-plan-change.ts), which is not a refusal then.
 */
export async function assertSwitchable(deps: CheckoutDeps, account: AccountRecord, context: PlanChangeContext, trx: Db, bySubscription = false): Promise<void> {
  const { plan } = context;
  const { trialPlanId } = context.settings;
  if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is still waiting for its first payment.');
  if (account.planId === plan.id) throw new AppError(409, 'same_plan', PLAN_CHANGE_MESSAGES.samePlan);
  if (account.plan?.isTrial || (account.planId !== null && account.planId === trialPlanId))
    throw new AppError(409, 'plan_not_switchable', PLAN_CHANGE_MESSAGES.notSwitchable);
  // The same panel user changes plan: the new plan must allow the server it is on (a premium location it lists, or any).
  const server = context.servers.find((candidate) => candidate.id === account.masterServerId);
  if (server && !planAllowsServer(plan, server)) throw new AppError(409, 'plan_not_here', PLAN_CHANGE_MESSAGES.notHere);
  const renewing = bySubscription ? undefined : await deps.billing.renewingSubscriptionOf(account.id, trx);
  // A plan this server renews (a saved YooKassa method) changes here, and renews the new plan from then on
  // (store-renewal-plan.ts); one Telegram renews cannot change its price; a card subscription changes at Stripe.
  if (renewing && renewing.metadata.renewed_by !== 'store')
    throw new AppError(
      409,
      'renews_by_itself',
      renewing.metadata.currency === STARS_CURRENCY ? PLAN_CHANGE_MESSAGES.renewsByStars : PLAN_CHANGE_MESSAGES.renewsByItself,
    );
  if (renewing && plan.billing !== 'recurring') throw new AppError(409, 'renewal_mismatch', PLAN_CHANGE_MESSAGES.renewalMismatchStore);
  if (await deps.billing.hasOpenDispute(account.id, trx)) throw new AppError(409, 'account_disputed', PLAN_CHANGE_MESSAGES.disputed);
  if ((await deps.billing.listPendingForAccount(account.id, trx)).length > 0) throw new AppError(409, 'change_in_progress', PLAN_CHANGE_MESSAGES.inProgress);
}

/**
 * What the terms are read with outside the account's lock: the settings, the plan to switch to (on sale: not the
 * trial, not free), and the servers (whether the plan may use the account's).
 */
export interface PlanChangeContext {
  plan: PlanRecord;
  settings: { currency: string; planChangeDowngrade: 'wallet' | 'period_end'; trialPlanId: string | null };
  servers: ServerRecord[];
}

export async function planChangeContext(deps: CheckoutDeps, planId: string): Promise<PlanChangeContext> {
  const settings = await deps.settings.getAppSettings();
  const plan = await deps.plans.findById(planId);
  if (!plan || plan.status !== 'active') throw notFound(BILLING_MESSAGES.planNotFound);
  if (!isPurchasable(plan, settings.trialPlanId)) throw new AppError(400, 'not_purchasable', 'This plan is free: claim it from your dashboard instead.');
  return { plan, settings, servers: await deps.servers.listServerRecords() };
}

/** The terms of switching the customer's account to `planId` now (see `termsIn`). */
export async function planChangeTerms(deps: CheckoutDeps, user: UserProfile, accountId: string, planId: string): Promise<PlanChangeTerms> {
  return termsIn(deps, user, accountId, await planChangeContext(deps, planId), deps.db);
}

/**
 * The terms of switching the customer's account to the context's plan now: 404 for an account not theirs, 409 with
 * why when it cannot change. Read in `trx` only (the change holds the account's lock around it).
 */
export async function termsIn(deps: CheckoutDeps, user: UserProfile, accountId: string, context: PlanChangeContext, trx: Db): Promise<PlanChangeTerms> {
  const account = await deps.accounts.findById(accountId, trx);
  if (!account || account.userId !== user.id) throw notFound('Account not found');
  const { plan } = context;
  const { currency, planChangeDowngrade } = context.settings;
  await assertSwitchable(deps, account, context, trx);
  const now = deps.clock();
  const { credit, creditDays, paidEnd } = await unusedPaidTime(deps, account.id, currency, now, trx);
  const charge = Math.max(0, plan.price - credit);
  const waits = charge === 0 && planChangeDowngrade === 'period_end' && paidEnd !== null && paidEnd > now;
  const quote: PlanChangeQuote = {
    accountId: account.id,
    fromPlanId: account.planId,
    planId: plan.id,
    currency,
    price: plan.price,
    credit,
    creditDays,
    charge,
    walletCredit: charge === 0 && !waits ? credit - plan.price : 0,
    takesEffect: waits ? 'period_end' : 'now',
    effectiveAt: (waits ? paidEnd : now).toISOString(),
    expiresAt: (waits ? paidEnd : expiryAfterDays(now, plan.days)).toISOString(),
  };
  return { account, plan, quote };
}
