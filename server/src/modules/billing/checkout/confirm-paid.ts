import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import type { CheckoutState } from '../../../payments/payment-driver.js';
import { expiryAfterDays } from '../../accounts/index.js';
import type { SubscriptionRecord, TransactionMetadata, TransactionRecord } from '../billing.repo.js';
import { enqueueFulfilment } from '../fulfilment/paid-account-jobs.js';
import { claimPaidTrial, convertTrial } from '../trials/trial-confirmation.js';
import { confirmRefusedTrial } from './confirm-trial.js';
import type { PaymentConfirmationDeps } from './payment-confirmation-deps.js';
import { moveStoreRenewal } from './store-renewal-plan.js';

/**
 * A payment confirmed: pending → succeeded, and what it bought delivered (a period in the ledger, or a top-up in
 * the wallet), in the caller's database transaction.
 */

const later = (...dates: Array<Date | null | undefined>) =>
  new Date(Math.max(...dates.filter((date): date is Date => date instanceof Date).map((date) => date.getTime())));

/**
 * pending → succeeded: the period it bought goes into the ledger, the subscription becomes active for
 * it (its dates shown as the ledger has them) and the account is provisioned by a job.
 * `fromReview`: a crypto invoice closed part-paid (needs_review) that was paid in full and confirmed after all.
 */
export async function confirmPaid(
  deps: PaymentConfirmationDeps,
  transaction: TransactionRecord,
  state: CheckoutState,
  trx: Db,
  extra: { fromReview?: boolean; overpaid?: TransactionMetadata['overpaid'] } = {},
): Promise<boolean> {
  const { billing, accounts, clock } = deps;
  const now = clock();
  if (
    !(await billing.markTransactionSucceeded(
      transaction.id,
      { checkoutId: state.checkoutId, paymentRef: state.paymentRef, cardFingerprint: state.cardFingerprint ?? null, ...extra },
      now,
      trx,
    ))
  )
    return false;
  const ordered = (await billing.findSubscription(transaction.subscriptionId, trx))!;
  if (ordered.metadata.kind === 'top_up') return confirmTopUp(deps, transaction, ordered, state, trx);
  if (ordered.metadata.kind === 'add_on') return confirmAddOn(deps, transaction, ordered, state, trx);
  // A paid trial is the person's once: taken now, with its period (or, taken meanwhile by another order, given back).
  if (ordered.metadata.trial && !(await claimPaidTrial(deps, ordered, trx))) return confirmRefusedTrial(deps, transaction, ordered, state, trx);
  // A plan bought within the trial goes to the trial's account, after the trial's time (trial-confirmation.ts).
  const conversion = ordered.metadata.converts_trial ? await convertTrial(deps, ordered, transaction, trx) : null;
  const subscription = ordered.metadata.trial || conversion ? (await billing.findSubscription(ordered.id, trx))! : ordered;
  const { metadata, vpnAccountId: accountId } = subscription;
  // Payments that buy time on one account queue here, so each reads the ledger as the one before left it.
  if (accountId) await billing.lockAccount(accountId, trx);
  let start = later(now, conversion?.trialEnd);
  // A plan change: what it credited stops counting now, and the new plan runs from now.
  if (metadata.kind === 'change' && accountId) await applyPlanChange(deps, subscription, transaction, now, trx);
  // A renewal by hand (its order's kind), or a renewal this server charged on a plan it renews (the payment's kind).
  if ((transaction.metadata.kind ?? metadata.kind) === 'renewal' && accountId) {
    // A renewal starts where what is paid ends: it never overlaps an earlier period, one-off or recurring.
    // An account with nothing in the ledger (made by an admin) keeps the time it was given.
    const paidEnd = await deps.periods.latestEnd(accountId, trx);
    start = later(now, paidEnd ?? (await accounts.findById(accountId, trx))?.expireDate);
  }
  // A renewal of a plan renewed here buys the plan's days (the first period alone had a referral's extra days).
  const renewalHere = metadata.renewed_by === 'store' && transaction.metadata.kind === 'renewal';
  const end = expiryAfterDays(start, renewalHere ? metadata.days - (metadata.bonus_days ?? 0) : metadata.days);
  const recorded = await deps.periods.insert(
    {
      id: randomUUID(),
      vpnAccountId: accountId,
      transactionId: transaction.id,
      subscriptionId: subscription.id,
      billing: subscription.billing,
      startsAt: start,
      endsAt: end,
    },
    now,
    trx,
  );
  // Chained after every period of the account, it cannot overlap one: this would be a broken ledger, so nothing is applied.
  if (recorded.kind === 'overlaps') throw new Error(`The period of transaction ${transaction.id} would overlap the paid period ${recorded.period.id}`);
  const { error: _cleared, past_due_since: _paid, ...rest } = metadata;
  await billing.updateSubscription(subscription.id, { event: 'paid', currentPeriodStart: start, currentPeriodEnd: end, metadata: rest }, now, trx);
  if (metadata.renewed_by === 'store' && transaction.metadata.kind !== 'renewal') await keepSavedMethod(deps, subscription, transaction, state, trx);
  await enqueueFulfilment(deps.jobs, { transactionId: transaction.id, accountId }, now, trx);
  await deps.notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
  await accounts.insertLog(
    {
      accountId: subscription.vpnAccountId,
      userId: subscription.userId,
      step: 'payment_succeeded',
      status: 'success',
      details: { transactionId: transaction.id, checkoutId: state.checkoutId, amount: transaction.amount, kind: metadata.kind },
      now,
    },
    trx,
  );
  // A refund or dispute that overtook this confirmation takes back what was just confirmed, in the same transaction.
  await deps.reversals.applyKept(state.paymentRef, trx);
  return true;
}

/**
 * A plan change paid (or with nothing to pay): the account's paid periods that had time left end now (the credit was
 * for that time), a downgrade's credit beyond the new plan's price goes into the wallet, and the account is on the
 * new plan, with its device limit; the panel user gets the new plan's limits and expiry from the fulfilment job.
 */
async function applyPlanChange(deps: PaymentConfirmationDeps, subscription: SubscriptionRecord, transaction: TransactionRecord, now: Date, trx: Db) {
  const { metadata, vpnAccountId } = subscription;
  const cut = await deps.periods.cutAt(vpnAccountId!, now, transaction.id, now, trx);
  const walletCredit = metadata.change?.wallet_credit ?? 0;
  if (walletCredit > 0) await deps.wallet.creditPlanChange(transaction, walletCredit, now, trx);
  await deps.accounts.setPlan(vpnAccountId!, { planId: metadata.plan_id, deviceLimit: metadata.device_limit ?? null }, now, trx);
  // A plan this server renews renews the new one from its new paid end (the change's period starts now).
  const { plan_id, plan_name, plan_names, price, days, data_limit, locations, device_limit } = metadata;
  const terms = { plan_id, plan_name, plan_names, price, days, data_limit, locations, device_limit };
  await moveStoreRenewal(deps, vpnAccountId!, terms, now, trx, expiryAfterDays(now, days));
  await deps.accounts.insertLog(
    {
      accountId: vpnAccountId,
      userId: subscription.userId,
      step: 'plan_changed',
      status: 'success',
      details: {
        transactionId: transaction.id,
        from: metadata.change?.from_plan_id ?? null,
        to: metadata.plan_id,
        cutPeriods: cut.map((p) => p.id),
        walletCredit,
      },
      now,
    },
    trx,
  );
}

/**
 * The first payment of a plan this server renews: the payment method it saved is kept and renews the plan. A
 * method the customer did not let be saved (an SBP payment, say) cannot be charged again: the plan runs its
 * period, with auto-renew off, and the customer is told on their dashboard.
 */
async function keepSavedMethod(
  deps: PaymentConfirmationDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  state: CheckoutState,
  trx: Db,
): Promise<void> {
  const { billing, clock, log } = deps;
  const now = clock();
  if (!state.savedMethod) {
    await billing.updateSubscription(
      subscription.id,
      { cancelAtPeriodEnd: true, metadata: { ...(await billing.findSubscription(subscription.id, trx))!.metadata, error: BILLING_MESSAGES.methodNotSaved } },
      now,
      trx,
    );
    log.info({ transactionId: transaction.id }, 'recurring: the first payment saved no payment method; the plan will not renew by itself');
    return;
  }
  const method = await deps.savedMethods.keep(
    {
      userId: subscription.userId,
      provider: subscription.providerName ?? 'yookassa',
      providerAccountId: transaction.providerAccountId ?? subscription.providerAccountId,
      methodRef: state.savedMethod.ref,
      title: state.savedMethod.title,
    },
    now,
    trx,
  );
  await billing.updateSubscription(subscription.id, { savedMethodId: method.id }, now, trx);
}

/**
 * An add-on paid (its status just changed, in `trx`): its grant goes into the account's add-on ledger, once (a
 * `period_end` one ends with the period paid now), the account's extra devices follow it, and a job raises a traffic
 * add-on's data limit on the panel (the fulfilment, as for every order).
 */
async function confirmAddOn(
  deps: PaymentConfirmationDeps,
  transaction: TransactionRecord,
  subscription: SubscriptionRecord,
  state: CheckoutState,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, clock } = deps;
  const now = clock();
  const accountId = subscription.vpnAccountId!;
  const addOn = subscription.metadata.add_on!;
  await billing.lockAccount(accountId, trx);
  const endsAt =
    addOn.until === 'forever' ? null : ((await deps.periods.latestEnd(accountId, trx)) ?? (await accounts.findById(accountId, trx))?.expireDate ?? now);
  await deps.addOns.insertGrant(
    {
      id: randomUUID(),
      accountId,
      userId: subscription.userId,
      addOnId: addOn.id,
      transactionId: transaction.id,
      name: addOn.name,
      kind: addOn.kind,
      amount: addOn.amount,
      until: addOn.until,
      endsAt,
      createdAt: now,
    },
    trx,
  );
  if (addOn.kind === 'devices') await deps.addOns.refreshExtraDevices(accountId, now, trx);
  await billing.updateSubscription(subscription.id, { event: 'paid', currentPeriodStart: now, ...(endsAt ? { currentPeriodEnd: endsAt } : {}) }, now, trx);
  await enqueueFulfilment(deps.jobs, { transactionId: transaction.id, accountId }, now, trx);
  await deps.notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
  await accounts.insertLog(
    {
      accountId,
      userId: subscription.userId,
      step: 'add_on_bought',
      status: 'success',
      details: {
        transactionId: transaction.id,
        checkoutId: state.checkoutId,
        amount: transaction.amount,
        addOn: addOn.id,
        kind: addOn.kind,
        gives: addOn.amount,
      },
      now,
    },
    trx,
  );
  await deps.reversals.applyKept(state.paymentRef, trx);
  return true;
}

/** A top-up paid (its status just changed, in `trx`): the money goes into the customer's wallet, once, and a receipt is sent. */
async function confirmTopUp(
  deps: PaymentConfirmationDeps,
  transaction: TransactionRecord,
  subscription: SubscriptionRecord,
  state: CheckoutState,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, clock } = deps;
  const now = clock();
  await deps.wallet.creditTopUp(transaction, now, trx);
  await billing.updateSubscription(subscription.id, { event: 'paid', currentPeriodStart: now }, now, trx);
  await deps.notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
  await accounts.insertLog(
    {
      accountId: null,
      userId: subscription.userId,
      step: 'wallet_topped_up',
      status: 'success',
      details: { transactionId: transaction.id, checkoutId: state.checkoutId, amount: transaction.amount, currency: transaction.currency },
      now,
    },
    trx,
  );
  await deps.reversals.applyKept(state.paymentRef, trx);
  return true;
}
