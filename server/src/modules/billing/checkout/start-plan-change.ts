import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { isProviderMethod } from '../../../../../shared/billing-schemas.js';
import { PLAN_CHANGE_MESSAGES, type PlanChangeBody, type PlanChangeQuote, type PlanChangeStarted } from '../../../../../shared/plan-changes.js';
import { AppError, notFound } from '../../../errors.js';
import { crashPoint } from '../../../lib/crash-points.js';
import type { UserProfile } from '../../users/index.js';
import { sitePage, type CheckoutDeps } from './checkout-deps.js';
import { cardSubscriptionOf, quoteCardPlanChange, startCardPlanChange } from './card-plan-change.js';
import { enqueueFollowUp } from './follow-up.js';
import { newOrderIds, type NewOrder } from './order-rows.js';
import { assertCanProvision, insufficientBalance, spendCredit } from './order-terms.js';
import { planChangeContext, planChangeTerms, termsIn, type PlanChangeContext, type PlanChangeTerms } from './plan-change-terms.js';
import { assertEmailIfNeeded, openCheckout, recordStarted } from './start-checkout.js';
import { moveStoreRenewal, renewedTermsOf } from './store-renewal-plan.js';

/**
 * A customer switches an account to another plan (issue 55; the terms are plan-change-terms.ts). Everything is
 * decided again under the account's lock, so two changes at once make one: the second finds the first's order (or
 * the account on its new plan). A change with nothing to pay (a downgrade into the wallet) or paid from the wallet is
 * made at once; one paid with a provider is an order like any other, applied when its payment is confirmed
 * (confirm-paid.ts); a downgrade the operator lets wait is kept on the account until its paid end (plan-change-jobs.ts).
 */

/** What the change order keeps of its terms (SubscriptionMetadata `change`). */
const changeOf = ({ quote, account }: Pick<PlanChangeTerms, 'quote' | 'account'>): NonNullable<NewOrder['change']> => ({
  from_plan_id: quote.fromPlanId,
  credit: quote.credit,
  credit_days: quote.creditDays,
  wallet_credit: quote.walletCredit,
  from_data_limit: account.dataLimitBytes,
  from_device_limit: account.deviceLimit === null ? null : account.deviceLimit - account.extraDevices,
});

export async function quotePlanChange(deps: CheckoutDeps, user: UserProfile, accountId: string, planId: string): Promise<PlanChangeQuote> {
  // An account a card subscription renews changes at the provider, which prorates it (card-plan-change.ts).
  const card = await cardSubscriptionOf(deps, accountId);
  if (card) return quoteCardPlanChange(deps, user, accountId, await planChangeContext(deps, planId), card);
  return (await planChangeTerms(deps, user, accountId, planId)).quote;
}

/** Made at once: nothing to pay, paid from the wallet, or the downgrade set to wait; null for one a provider is to take. */
async function changeInPlace(
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  body: PlanChangeBody,
  ids: ReturnType<typeof newOrderIds>,
  context: PlanChangeContext,
): Promise<{ terms: PlanChangeTerms; started: PlanChangeStarted | null }> {
  return deps.db.transaction(async (trx) => {
    await deps.billing.lockAccount(accountId, trx);
    const terms = await termsIn(deps, user, accountId, context, trx);
    const { quote, plan } = terms;
    if (quote.takesEffect === 'period_end') {
      await deps.accounts.setNextPlan(accountId, { planId: plan.id, at: new Date(quote.effectiveAt) }, deps.clock(), trx);
      // A plan this server renews charges the new plan at its paid end (the renewal keeps the old limits until the switch).
      await moveStoreRenewal(deps, accountId, renewedTermsOf(plan), deps.clock(), trx);
      return { terms, started: { takesEffect: 'period_end', planId: plan.id, effectiveAt: quote.effectiveAt } };
    }
    const fromWallet = body.method === 'wallet';
    if (quote.charge > 0 && !fromWallet) return { terms, started: null };
    const order = { user, plan, kind: 'change' as const, currency: quote.currency, ids, change: changeOf(terms) };
    let creditSpent = 0;
    if (quote.charge > 0) {
      creditSpent = await spendCredit(deps, trx, user, {
        currency: quote.currency,
        total: quote.charge,
        transactionId: ids.transactionId,
        leaveCharge: false,
        kind: 'change',
      });
      if (creditSpent !== quote.charge) throw insufficientBalance(quote.charge - creditSpent);
    }
    const checkoutId = await deps.orders.placeFree(trx, { ...order, creditSpent, bonusDays: 0 });
    const url = `${sitePage(deps, user, '/thank-you')}?session_id=${encodeURIComponent(checkoutId)}`;
    return { terms, started: { takesEffect: 'now', url, sessionId: checkoutId, subscriptionId: ids.subscriptionId } };
  });
}

/** `POST /api/accounts/:id/change-plan`. */
export async function startPlanChange(deps: CheckoutDeps, user: UserProfile, accountId: string, body: PlanChangeBody): Promise<PlanChangeStarted> {
  const card = await cardSubscriptionOf(deps, accountId);
  if (card) return startCardPlanChange(deps, user, accountId, body, await planChangeContext(deps, body.planId), card);
  const method = body.method ?? 'card';
  const { currency } = await deps.settings.getAppSettings();
  // Asked first, so a method that is not set up is refused before anything is written.
  const provider = isProviderMethod(method) ? await deps.payments.forCheckout(method, currency) : null;
  if (provider) assertEmailIfNeeded(provider.driver, user);
  const context = await planChangeContext(deps, body.planId);
  const preview = await termsIn(deps, user, accountId, context, deps.db);
  if (preview.quote.takesEffect === 'now') await assertCanProvision(deps, preview.plan);
  const ids = newOrderIds(accountId);
  const { terms, started } = await changeInPlace(deps, user, accountId, { ...body, method }, ids, context);
  if (started) {
    await logStarted(deps, user, terms, ids.transactionId, started);
    return started;
  }
  if (!provider) throw new AppError(409, 'price_changed', BILLING_MESSAGES.priceChanged);
  return startProviderChange(deps, user, { ...terms, context }, ids, provider);
}

/** A change with something to pay, through a provider: its order and follow-up (under the lock), then the provider's page. */
async function startProviderChange(
  deps: CheckoutDeps,
  user: UserProfile,
  terms: PlanChangeTerms & { context: PlanChangeContext },
  ids: ReturnType<typeof newOrderIds>,
  provider: Awaited<ReturnType<CheckoutDeps['payments']['forCheckout']>>,
): Promise<PlanChangeStarted> {
  const { driver, providerId, providerAccountId } = provider;
  let quote = terms.quote;
  await deps.db.transaction(async (trx) => {
    await deps.billing.lockAccount(terms.account.id, trx);
    // Another change (or a renewal) may have come first: its order, or the account's new plan, refuses this one.
    const current = await termsIn(deps, user, terms.account.id, terms.context, trx);
    quote = current.quote;
    if (quote.charge === 0) throw new AppError(409, 'price_changed', BILLING_MESSAGES.priceChanged);
    const now = deps.clock();
    await deps.orders.insert(trx, now, {
      user,
      plan: terms.plan,
      kind: 'change',
      currency: quote.currency,
      ids,
      amount: quote.charge,
      providerId,
      providerAccountId,
      billing: 'one_off',
      change: changeOf(current),
    });
    await enqueueFollowUp(deps, trx, ids.transactionId, now);
  });
  await crashPoint('plan-change:after-order');
  const checkout = await openCheckout(deps, driver, {
    ...ids,
    user,
    plan: terms.plan,
    kind: 'change',
    currency: quote.currency,
    recurring: null,
    promo: null,
    creditSpent: 0,
    bonusDays: 0,
    saveMethod: false,
    amount: quote.charge,
  });
  await recordStarted(deps, {
    accountId: ids.accountId,
    userId: user.id,
    checkoutId: checkout.checkoutId,
    transactionId: ids.transactionId,
    planId: terms.plan.id,
    amount: quote.charge,
    kind: 'change',
    credit: quote.credit,
  });
  return { takesEffect: 'now', url: checkout.url, sessionId: checkout.checkoutId, subscriptionId: ids.subscriptionId };
}

async function logStarted(deps: CheckoutDeps, user: UserProfile, terms: PlanChangeTerms, transactionId: string, started: PlanChangeStarted) {
  const { quote } = terms;
  await deps.accounts.insertLog({
    accountId: terms.account.id,
    userId: user.id,
    step: started.takesEffect === 'now' ? 'checkout_started' : 'plan_change_scheduled',
    status: 'success',
    details:
      started.takesEffect === 'now'
        ? {
            transactionId,
            checkoutId: started.sessionId,
            planId: quote.planId,
            amount: 0,
            kind: 'change',
            credit: quote.credit,
            walletCredit: quote.walletCredit,
          }
        : { from: quote.fromPlanId, to: quote.planId, effectiveAt: quote.effectiveAt },
    now: deps.clock(),
  });
}

/** `DELETE /api/accounts/:id/change-plan`: the downgrade set to wait is called off; 404 for an account not theirs, 409 when none waits. */
export async function cancelScheduledPlanChange(deps: CheckoutDeps, user: UserProfile, accountId: string): Promise<void> {
  const account = await deps.accounts.findForUser(accountId, user.id);
  if (!account) throw notFound('Account not found');
  if (!account.nextPlan) throw new AppError(409, 'no_scheduled_change', PLAN_CHANGE_MESSAGES.noScheduledChange);
  const now = deps.clock();
  const current = account.planId ? await deps.plans.findById(account.planId) : undefined;
  await deps.db.transaction(async (trx) => {
    await deps.accounts.setNextPlan(account.id, null, now, trx);
    // A plan this server renews renews the plan the account is on again.
    if (current) await moveStoreRenewal(deps, account.id, renewedTermsOf(current), now, trx);
  });
  await deps.accounts.insertLog({
    accountId: account.id,
    userId: user.id,
    step: 'plan_change_cancelled',
    status: 'success',
    details: { planId: account.nextPlan.planId },
    now,
  });
}
