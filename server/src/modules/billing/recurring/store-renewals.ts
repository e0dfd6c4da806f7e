import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';
import { PermanentJobError, RetryJobLater, type JobHandler } from '../../../jobs/worker.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { PaymentProviderError, type CheckoutState } from '../../../payments/payment-driver.js';
import type { UsersRepo } from '../../users/users.repo.js';
import type { BillingRepo, StoreCharge, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { nextChargeAmount } from '../promo-terms.js';
import type { SavedMethodsRepo } from './saved-methods.repo.js';
import { DAY_MS } from '../../../../../shared/constants.js';
import { chargesOf, renewalKeyOf, STORE_RENEWAL, tryDueAt } from './store-renewal-schedule.js';

export const SCAN_STORE_RENEWALS = 'scan_store_renewals';
export const CHARGE_STORE_RENEWAL = 'charge_store_renewal';

const Payload = z.object({ subscriptionId: z.string().min(1), periodEnd: z.iso.datetime() });


/**
 * Recurring plans this server renews (a provider without subscriptions of its own: YooKassa). Before a period
 * ends, the saved payment method is charged for the next one, exactly once per period however often or wherever
 * the job runs: the period's renewal transaction is unique (`renewal:<subscription>:<period end>`), each try is
 * counted on it (compare and set) and written with its idempotency key before it is sent, and a try whose answer
 * was lost (a crash, a timeout) is sent again with the same key, which the provider answers with the same payment.
 * A declined try is e-mailed to the customer and tried again the next day; after the third the plan ends with its
 * period. The payment's outcome, from here or from its notification, is applied by payment-confirmation.ts.
 */
export function createStoreRenewals(deps: {
  db: Db; billing: BillingRepo; savedMethods: SavedMethodsRepo; payments: Pick<PaymentDrivers, 'forSubscription'>; users: Pick<UsersRepo, 'findById'>;
  periods: Pick<PaidPeriodsRepo, 'latestEnd'>;
  jobs: JobsRepo;
  /** Applies a payment's state to our records in `trx` (payment-confirmation.ts applyCheckout). */
  apply: (state: CheckoutState, trx: Db) => Promise<unknown>;
  clock: Clock;
}) {
  const { billing, clock } = deps;

  /** The period's renewal transaction, if a try was made. */
  const renewalOf = (subscription: SubscriptionRecord, periodEnd: Date): Promise<TransactionRecord | undefined> =>
    billing.findInvoiceTransaction(subscription.id, renewalKeyOf(subscription.id, periodEnd), false, deps.db);

  /**
   * Counts try `attempt` and writes it with its key, with the period's renewal transaction the first time (made
   * once, whoever asks first; its amount is the price the plan renews at): null when another runner did first.
   */
  async function startTry(subscription: SubscriptionRecord, periodEnd: Date, attempt: number): Promise<{ transaction: TransactionRecord; charge: StoreCharge } | null> {
    const key = renewalKeyOf(subscription.id, periodEnd);
    return deps.db.transaction(async (trx) => {
      const now = clock();
      await billing.insertInvoiceTransaction({
        id: randomUUID(), subscriptionId: subscription.id, userId: subscription.userId, invoiceId: key, amount: nextChargeAmount(subscription, periodEnd),
        currency: subscription.metadata.currency ?? 'usd', metadata: { plan_name: subscription.metadata.plan_name, kind: 'renewal', charges: [] },
      }, now, trx);
      const made = (await billing.findInvoiceTransaction(subscription.id, key, false, trx))!;
      if (!(await billing.countChargeAttempt(made.id, attempt - 1, now, trx))) return null;
      const current = (await billing.findTransactionForUpdate(made.id, trx))!;
      const charge: StoreCharge = { attempt, key: `${made.id}:${attempt}`, at: now.toISOString() };
      const metadata = { ...current.metadata, charges: [...chargesOf(current), charge] };
      await billing.setTransactionMetadata(made.id, metadata, now, trx);
      return { transaction: { ...current, metadata }, charge };
    });
  }

  /** The provider's answer to a try, recorded on it, then applied (paid, declined, or still open). */
  async function recordAnswer(transaction: TransactionRecord, attempt: number, state: CheckoutState): Promise<void> {
    await deps.db.transaction(async (trx) => {
      const now = clock();
      const current = (await billing.findTransactionForUpdate(transaction.id, trx))!;
      const charges = chargesOf(current).map((charge) => (charge.attempt === attempt ? { ...charge, payment_id: state.checkoutId } : charge));
      await billing.setTransactionMetadata(transaction.id, { ...current.metadata, charges }, now, trx);
      await deps.apply(state, trx);
    });
  }

  /** Sends try `charge` of the renewal to the provider (again, after a lost answer: the same key is the same payment). */
  async function send(subscription: SubscriptionRecord, transaction: TransactionRecord, charge: StoreCharge): Promise<CheckoutState> {
    const driver = await deps.payments.forSubscription(subscription);
    if (!driver?.chargeSavedMethod) throw new RetryJobLater('the payment provider that keeps the saved method is not configured', STORE_RENEWAL.pendingRecheckSeconds);
    const method = subscription.savedMethodId ? await deps.savedMethods.findById(subscription.savedMethodId) : undefined;
    const user = await deps.users.findById(subscription.userId);
    if (!method || !user) throw new PermanentJobError(`Subscription ${subscription.id} has no saved method (or customer) to charge`);
    let state: CheckoutState;
    try {
      state = await driver.chargeSavedMethod({
        methodRef: method.methodRef, orderId: transaction.id, amount: transaction.amount, currency: transaction.currency,
        description: `${subscription.metadata.plan_name} (renewal)`, customerEmail: user.email, idempotencyKey: charge.key,
        metadata: { subscription_id: subscription.id, kind: 'renewal', attempt: String(charge.attempt) },
      });
    } catch (err) {
      // Refused outright (a 4xx: the saved method is gone or cannot be charged): as a decline, no payment made.
      // Anything else (no answer, a 5xx) is retried by the job with the same key.
      if (!(err instanceof PaymentProviderError) || !err.rejected) throw err;
      state = {
        checkoutId: `refused:${charge.key}`, orderId: transaction.id, outcome: 'failed', amountPaid: 0, currency: transaction.currency, paymentRef: null,
        declineReason: err.code ?? 'refused',
      };
    }
    await crashPoint('store-renewal:after-charge');
    await recordAnswer(transaction, charge.attempt, state);
    return state;
  }

  /** A try the provider was still processing, read again. */
  async function reread(subscription: SubscriptionRecord, transaction: TransactionRecord, charge: StoreCharge): Promise<CheckoutState> {
    const driver = await deps.payments.forSubscription(subscription);
    if (!driver) throw new RetryJobLater('the payment provider that keeps the saved method is not configured', STORE_RENEWAL.pendingRecheckSeconds);
    const state = await driver.readCheckout(charge.payment_id!);
    await recordAnswer(transaction, charge.attempt, state);
    return state;
  }

  /**
   * The account is paid past this period by another payment (a renewal by hand after a declined try): this period
   * is not charged, and the plan stops renewing, so that no period is paid twice.
   */
  async function paidBeyond(subscription: SubscriptionRecord, periodEnd: Date): Promise<boolean> {
    if (!subscription.vpnAccountId) return false;
    const paidEnd = await deps.periods.latestEnd(subscription.vpnAccountId);
    if (!paidEnd || paidEnd <= periodEnd) return false;
    await deps.db.transaction(async (trx) => {
      const current = await billing.findSubscriptionForUpdate(subscription.id, trx);
      if (!current || current.cancelAtPeriodEnd) return;
      const { error: _cleared, past_due_since: _since, ...metadata } = current.metadata;
      await billing.updateSubscription(current.id, { status: 'active', cancelAtPeriodEnd: true, metadata }, clock(), trx);
    });
    return true;
  }

  /** The job for one period's renewal: the try due now, the open one again, or the wait until the next is due. */
  async function charge(subscriptionId: string, periodEnd: Date): Promise<{ runAgainAt: Date; note: string } | void> {
    const subscription = await billing.findSubscription(subscriptionId);
    const live = subscription && (subscription.status === 'active' || subscription.status === 'past_due') && subscription.savedMethodId;
    // Ended, or renewed already (its period moved on): nothing to charge.
    if (!live || subscription.currentPeriodEnd?.getTime() !== periodEnd.getTime()) return;
    const method = await deps.savedMethods.findById(subscription.savedMethodId!);
    if (!method || method.removedAt) return;
    // Auto-renew off: nothing is charged unless the customer turns it back on before the period ends.
    if (subscription.cancelAtPeriodEnd && periodEnd > clock()) {
      const later = new Date(Math.min(periodEnd.getTime(), clock().getTime() + STORE_RENEWAL.offRecheckSeconds * 1000));
      return { runAgainAt: later, note: 'auto-renew is off' };
    }
    const transaction = await renewalOf(subscription, periodEnd);
    if (transaction && transaction.status !== 'pending' && transaction.status !== 'failed') return;
    const last = transaction ? chargesOf(transaction).at(-1) : undefined;
    if (transaction && last && (!last.outcome || last.outcome === 'pending')) {
      // A try still being processed is read again; one whose answer was lost is sent again with its key (the
      // provider answers with the payment it made, if it did, and makes none twice).
      const state = last.payment_id ? await reread(subscription, transaction, last) : await send(subscription, transaction, last);
      if (state.outcome === 'open') throw new RetryJobLater('the renewal charge is still being processed', STORE_RENEWAL.pendingRecheckSeconds);
      return state.outcome === 'paid' || last.attempt >= STORE_RENEWAL.tries ? undefined : { runAgainAt: tryDueAt(periodEnd, last.attempt + 1), note: `try ${last.attempt} was declined` };
    }
    if (last?.outcome === 'paid') return;
    const attempt = (last?.attempt ?? 0) + 1;
    if (attempt > STORE_RENEWAL.tries) return;
    const due = tryDueAt(periodEnd, attempt);
    const now = clock();
    // A job run late (the server was down): a period that has ended is not charged for any more.
    if (periodEnd <= now || subscription.cancelAtPeriodEnd) return;
    if (due > now) return { runAgainAt: due, note: `try ${attempt} is due at ${due.toISOString()}` };
    // Renewed by hand after a declined try (a one-off period after this one): nothing more to charge; auto-renew goes off.
    if (await paidBeyond(subscription, periodEnd)) return;
    const started = await startTry(subscription, periodEnd, attempt);
    if (!started) throw new RetryJobLater('another runner is making this try', 60);
    const state = await send(subscription, started.transaction, started.charge);
    if (state.outcome === 'open') throw new RetryJobLater('the renewal charge is still being processed', STORE_RENEWAL.pendingRecheckSeconds);
    if (state.outcome !== 'paid' && attempt < STORE_RENEWAL.tries) return { runAgainAt: tryDueAt(periodEnd, attempt + 1), note: `try ${attempt} was declined` };
  }

  /** Every subscription whose first try is due soon gets its period's job (once: the job is keyed by the period). */
  async function scan(): Promise<number> {
    const now = clock();
    const due = await billing.listStoreRenewalsDue(new Date(now.getTime() + STORE_RENEWAL.firstTryDaysBefore * DAY_MS), 500);
    for (const subscription of due) {
      await deps.jobs.enqueue({
        type: CHARGE_STORE_RENEWAL, payload: { subscriptionId: subscription.id, periodEnd: subscription.currentPeriodEnd.toISOString() },
        dedupeKey: `${CHARGE_STORE_RENEWAL}:${renewalKeyOf(subscription.id, subscription.currentPeriodEnd)}`, serialKey: accountSerialKey(subscription.vpnAccountId),
        maxAttempts: 500,
      }, now);
    }
    return due.length;
  }

  return {
    charge,
    scan,
    handlers: {
      [SCAN_STORE_RENEWALS]: (async () => {
        const queued = await scan();
        return { runAgainAt: addSeconds(clock(), STORE_RENEWAL.scanSeconds), note: `${queued} renewals due within ${STORE_RENEWAL.firstTryDaysBefore} days` };
      }) satisfies JobHandler,
      [CHARGE_STORE_RENEWAL]: (async (payload) => {
        const parsed = Payload.safeParse(payload);
        if (!parsed.success) throw new PermanentJobError('Bad store renewal payload');
        return charge(parsed.data.subscriptionId, new Date(parsed.data.periodEnd));
      }) satisfies JobHandler,
    },
  };
}

export type StoreRenewals = ReturnType<typeof createStoreRenewals>;
