import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { DAY_MS } from '../../../../../shared/constants.js';
import { renewalIntervalOf } from '../../../../../shared/plan-billing.js';
import { PLAN_CHANGE_MESSAGES, type PlanChangeBody, type PlanChangeQuote, type PlanChangeStarted } from '../../../../../shared/plan-changes.js';
import type { Db } from '../../../db/knex.js';
import { AppError, notFound } from '../../../errors.js';
import { PermanentJobError, RetryJobLater, type JobHandler } from '../../../jobs/worker.js';
import { addSeconds } from '../../../lib/clock.js';
import { PaymentProviderError, type PaymentDriver, type PriceChangeProration } from '../../../payments/payment-driver.js';
import type { AccountRecord } from '../../accounts/index.js';
import type { CardPlanChange } from '../../orders/index.js';
import type { PlanRecord } from '../../plans/index.js';
import type { UserProfile } from '../../users/index.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import { planNamesOf } from '../../../../../shared/plan-translations.js';
import { recurringPriceSpec } from '../recurring/recurring-catalog.js';
import { sitePage, type CheckoutDeps } from './checkout-deps.js';
import { assertCanProvision } from './order-terms.js';
import { assertSwitchable, type PlanChangeContext } from './plan-change-terms.js';

/**
 * A plan change of an account a card subscription renews (issue 55): the provider's subscription moves to the new
 * plan's recurring price, and the provider prorates it (Stripe: the unused time of the old price credited, the rest
 * of the period at the new one charged to the card at once; a downgrade's credit goes into the customer's balance
 * there, which pays the next invoices). The change is written first, as a pending transaction of the subscription
 * carrying its idempotency key, then sent; its proration invoice, paid, is the change's own movement in the ledger
 * (recurring/card-plan-change-invoices.ts). A change whose answer was lost is sent again, with the same key, by a job.
 */

export const SETTLE_CARD_PLAN_CHANGE = 'settle_card_plan_change';
/** The job sends a change again (the same key) only after the request that sent it first can no longer be waiting. */
const SETTLE_AFTER_SECONDS = 120;

/** The card subscription that renews the account, at a provider that can change its price; null for any other account. */
export interface CardSubscription {
  subscription: SubscriptionRecord;
  driver: PaymentDriver;
}

export async function cardSubscriptionOf(deps: Pick<CheckoutDeps, 'billing' | 'payments'>, accountId: string): Promise<CardSubscription | null> {
  const subscription = await deps.billing.renewingSubscriptionOf(accountId);
  if (!subscription || subscription.metadata.renewed_by === 'store' || !subscription.providerSubscriptionId) return null;
  const driver = await deps.payments.forSubscription(subscription);
  if (!driver?.changeSubscriptionPrice || !driver.previewSubscriptionPrice) return null;
  return { subscription, driver };
}

/** Refuses, with why, a change the card subscription cannot make (read in `trx`: the change holds the account's lock). */
async function assertCardSwitchable(
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  context: PlanChangeContext,
  card: CardSubscription,
  trx: Db,
): Promise<AccountRecord> {
  const account = await deps.accounts.findById(accountId, trx);
  if (!account || account.userId !== user.id) throw notFound('Account not found');
  const { plan, settings } = context;
  await assertSwitchable(deps, account, context, trx, true);
  const renewing = await deps.billing.renewingSubscriptionOf(account.id, trx);
  // Cancelled (or replaced) since it was read: the terms are not the ones shown.
  if (renewing?.id !== card.subscription.id) throw new AppError(409, 'price_changed', BILLING_MESSAGES.priceChanged);
  if (renewing.status !== 'active') throw new AppError(409, 'change_in_progress', PLAN_CHANGE_MESSAGES.renewalUnpaid);
  const { metadata } = renewing;
  const current = renewalIntervalOf(metadata.days - (metadata.bonus_days ?? 0));
  const next = recurringPriceSpec(plan, settings.currency)?.interval;
  if (!current || !next || current.unit !== next.unit || current.count !== next.count)
    throw new AppError(409, 'renewal_mismatch', PLAN_CHANGE_MESSAGES.renewalMismatch);
  if ((metadata.currency ?? 'usd') !== settings.currency) throw new AppError(409, 'currency_changed', PLAN_CHANGE_MESSAGES.otherCurrency);
  return account;
}

interface CardChangeTerms {
  account: AccountRecord;
  plan: PlanRecord;
  quote: PlanChangeQuote;
  priceRef: string;
  prorateAt: Date;
  proration: PriceChangeProration;
}

/** The terms as the provider prorates them now (its preview of the change, for this very second). */
async function cardChangeTerms(
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  context: PlanChangeContext,
  card: CardSubscription,
): Promise<CardChangeTerms> {
  const account = await assertCardSwitchable(deps, user, accountId, context, card, deps.db);
  const { plan } = context;
  const { currency } = context.settings;
  // Whole seconds: the provider prorates to the second, and the change is sent for the same instant.
  const prorateAt = new Date(Math.floor(deps.clock().getTime() / 1000) * 1000);
  let priceRef: string;
  let proration: PriceChangeProration;
  try {
    priceRef = await card.driver.ensureRecurringPrice(recurringPriceSpec(plan, currency)!);
    proration = await card.driver.previewSubscriptionPrice!(card.subscription.providerSubscriptionId!, { priceRef, prorateAt });
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.error({ err, accountId, planId: plan.id }, 'plan change: the provider did not preview the subscription change');
    throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
  }
  const paidEnd = await deps.periods.latestEnd(account.id);
  const expiresAt = paidEnd && paidEnd > proration.periodEnd ? paidEnd : proration.periodEnd;
  const quote: PlanChangeQuote = {
    accountId: account.id,
    fromPlanId: account.planId,
    planId: plan.id,
    currency,
    price: plan.price,
    credit: proration.credit,
    creditDays: Math.max(0, Math.round((proration.periodEnd.getTime() - prorateAt.getTime()) / DAY_MS)),
    charge: proration.amountDue,
    walletCredit: 0,
    takesEffect: 'now',
    effectiveAt: prorateAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
    balanceCredit: proration.balanceCredit,
  };
  return { account, plan, quote, priceRef, prorateAt, proration };
}

export const quoteCardPlanChange = async (
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  context: PlanChangeContext,
  card: CardSubscription,
): Promise<PlanChangeQuote> => (await cardChangeTerms(deps, user, accountId, context, card)).quote;

/** `POST /api/accounts/:id/change-plan` for an account a card subscription renews: written, then sent to the provider. */
export async function startCardPlanChange(
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  body: PlanChangeBody,
  context: PlanChangeContext,
  card: CardSubscription,
): Promise<PlanChangeStarted> {
  // The subscription's card pays it: no other method can.
  if (body.method !== undefined && body.method !== 'card') throw new AppError(409, 'renewal_mismatch', PLAN_CHANGE_MESSAGES.renewalMismatch);
  const terms = await cardChangeTerms(deps, user, accountId, context, card);
  await assertCanProvision(deps, terms.plan);
  const transactionId = randomUUID();
  await deps.db.transaction(async (trx) => {
    await deps.billing.lockAccount(accountId, trx);
    // Decided again under the lock: a change (or a renewal) that came first refuses this one.
    const account = await assertCardSwitchable(deps, user, accountId, context, card, trx);
    const now = deps.clock();
    const { plan, quote } = terms;
    const change: CardPlanChange = {
      key: `plan-change:${transactionId}`,
      price_ref: terms.priceRef,
      prorate_at: terms.prorateAt.toISOString(),
      from_plan_id: account.planId,
      from_data_limit: account.dataLimitBytes,
      from_device_limit: account.deviceLimit,
      credit: quote.credit,
      credit_days: quote.creditDays,
      to: {
        plan_id: plan.id,
        plan_name: plan.name,
        plan_names: planNamesOf(plan.translations),
        price: plan.price,
        data_limit: plan.dataLimitBytes,
        device_limit: plan.deviceLimit,
        locations: plan.locations,
      },
    };
    // The intent, before the provider is asked: its placeholder invoice id becomes the proration invoice's once paid.
    await deps.billing.insertInvoiceTransaction(
      {
        id: transactionId,
        subscriptionId: card.subscription.id,
        userId: user.id,
        invoiceId: change.key,
        amount: quote.charge,
        currency: quote.currency,
        metadata: { plan_name: plan.name, kind: 'change', plan_change: change },
      },
      now,
      trx,
    );
    await deps.jobs.enqueue(
      {
        type: SETTLE_CARD_PLAN_CHANGE,
        payload: { transactionId },
        dedupeKey: `${SETTLE_CARD_PLAN_CHANGE}:${transactionId}`,
        runAt: addSeconds(now, SETTLE_AFTER_SECONDS),
        maxAttempts: 30,
      },
      now,
      trx,
    );
    await deps.accounts.insertLog(
      {
        accountId,
        userId: user.id,
        step: 'checkout_started',
        status: 'success',
        details: { transactionId, planId: plan.id, amount: quote.charge, kind: 'change', credit: quote.credit, balanceCredit: quote.balanceCredit ?? 0 },
        now,
      },
      trx,
    );
  });
  let sent: SendOutcome;
  try {
    sent = await sendCardPlanChange(deps, transactionId);
  } catch (err) {
    // No answer: the job sends it again with the same key (the change is made once either way); the page follows it.
    deps.log.warn({ err, transactionId }, 'plan change: the provider did not answer; the follow-up sends it again');
    sent = 'pending';
  }
  if (sent === 'declined') throw new AppError(402, 'card_declined', PLAN_CHANGE_MESSAGES.cardDeclined);
  if (sent === 'refused') throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
  const url = `${sitePage(deps, user, '/thank-you')}?session_id=${encodeURIComponent(transactionId)}`;
  return { takesEffect: 'now', url, sessionId: transactionId, subscriptionId: card.subscription.id };
}

type SendOutcome = 'made' | 'declined' | 'refused' | 'pending' | 'settled';

/** What a card refusal is called: the customer can do something about it (another card, or confirming the payment). */
const DECLINES = new Set(['card_declined', 'expired_card', 'incorrect_cvc', 'incorrect_number', 'processing_error', 'authentication_required']);

/** Refusals that are not an answer about the change itself: the same request is still being processed. */
const NOT_AN_ANSWER = new Set(['idempotency_key_in_use', 'lock_timeout', 'rate_limit']);

export type CardPlanChangeDeps = Pick<CheckoutDeps, 'db' | 'billing' | 'payments' | 'confirmation' | 'clock' | 'log'>;

/**
 * Sends the written change to the provider (again, with the same key, after a lost answer) and applies its answer:
 * the proration invoice (paid: the change is made here too, as its webhook would), or the refusal (the change is
 * closed as failed: nothing changed at the provider). Throws when there is no answer.
 */
export async function sendCardPlanChange(deps: CardPlanChangeDeps, transactionId: string): Promise<SendOutcome> {
  const transaction = await deps.billing.findTransaction(transactionId);
  const change = transaction?.metadata.plan_change;
  if (!transaction || !change || transaction.status !== 'pending') return 'settled';
  const subscription = await deps.billing.findSubscription(transaction.subscriptionId);
  const driver = subscription ? await deps.payments.forSubscription(subscription) : null;
  if (!subscription?.providerSubscriptionId || !driver?.changeSubscriptionPrice)
    throw new Error(`The provider of subscription ${transaction.subscriptionId} is not set up`);
  try {
    const { invoice } = await driver.changeSubscriptionPrice(subscription.providerSubscriptionId, {
      priceRef: change.price_ref,
      prorateAt: new Date(change.prorate_at),
      idempotencyKey: change.key,
      // Set on the subscription with the change: its proration invoice names the change, its renewals the new plan.
      metadata: { plan_change_id: transaction.id, plan_id: change.to.plan_id },
    });
    if (!invoice) throw new Error(`The provider made no proration invoice for plan change ${transaction.id}`);
    await deps.confirmation.applyInvoice({ ...invoice, changeRef: transaction.id });
    return 'made';
  } catch (err) {
    if (!(err instanceof PaymentProviderError) || !err.rejected || NOT_AN_ANSWER.has(err.code ?? '')) throw err;
    const declined = DECLINES.has(err.code ?? '');
    deps.log.warn({ err, transactionId }, 'plan change: the provider refused the subscription change; nothing changed');
    await deps.db.transaction((trx) =>
      deps.billing.markTransactionFailed(transaction.id, declined ? PLAN_CHANGE_MESSAGES.cardDeclined : BILLING_MESSAGES.checkoutFailed, deps.clock(), trx),
    );
    return declined ? 'declined' : 'refused';
  }
}

const Payload = z.object({ transactionId: z.string().min(1) });

/** The follow-up of a card plan change: a change still pending (its answer lost) is sent again with its key. */
export function createSettleCardPlanChangeHandler(deps: CardPlanChangeDeps): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad plan change payload');
    try {
      await sendCardPlanChange(deps, parsed.data.transactionId);
    } catch (err) {
      deps.log.warn({ err, transactionId: parsed.data.transactionId }, 'plan change: still no answer from the provider; tried again later');
      throw new RetryJobLater('the provider did not answer the plan change', SETTLE_AFTER_SECONDS);
    }
  };
}
