import { BILLING_MESSAGES, type SubscriptionStatus } from '../../../../../shared/billing.js';
import { AppError } from '../../../errors.js';
import { PaymentProviderError, PROVIDER_CANNOT, type PaymentDriver, type RecurringState } from '../../../payments/payment-driver.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import type { SubscriptionControlsDeps } from './subscription-controls-deps.js';

/**
 * How a recurring subscription is changed, for the customer's and the admin's controls alike: at the provider, its
 * answer applied here at once, or here alone for a plan this server renews; and what must hold before it is.
 */

/** The driver of the account that bills the subscription (not necessarily the keys in force). */
async function driverOf(deps: SubscriptionControlsDeps, record: SubscriptionRecord): Promise<PaymentDriver> {
  const found = await deps.payments.forSubscription(record);
  if (!found) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
  return found;
}

/**
 * The provider's answer applied in a transaction of its own; provider failures are a clear 502, and what the provider
 * cannot do at all (Telegram Stars moving a charge) a 409 that says so.
 */
export async function change(
  deps: SubscriptionControlsDeps,
  record: SubscriptionRecord,
  call: (driver: PaymentDriver, ref: string) => Promise<RecurringState>,
  byAdmin = false,
): Promise<SubscriptionRecord> {
  const ref = record.providerSubscriptionId!;
  let state: RecurringState;
  try {
    state = await call(await driverOf(deps, record), ref);
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    if (err.rejected && err.code === PROVIDER_CANNOT)
      throw new AppError(409, 'provider_cannot', `The payment provider of this subscription cannot do this: ${err.message}.`);
    deps.log.warn({ err, subscriptionId: record.id }, 'recurring: the provider refused or did not answer a subscription change');
    throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.subscriptionChangeFailed);
  }
  await deps.db.transaction((trx) => deps.recurring.applyState(state, trx, { byAdmin }));
  return (await deps.billing.findSubscription(record.id))!;
}

/**
 * A plan this server renews (store-renewals.ts) changes here, with no provider to ask: auto-renew off or on
 * (back on only with the card it renews with still saved), or ended now.
 */
export async function changeHere(
  deps: SubscriptionControlsDeps,
  record: SubscriptionRecord,
  to: 'cancel_at_period_end' | 'resume' | 'cancel_now',
  byAdmin = false,
): Promise<SubscriptionRecord> {
  const { billing, clock } = deps;
  if (to === 'resume') {
    const method = record.savedMethodId ? await deps.savedMethods.findById(record.savedMethodId) : undefined;
    if (!method || method.removedAt) throw new AppError(409, 'no_saved_method', BILLING_MESSAGES.noSavedMethod);
  }
  await deps.db.transaction(async (trx) => {
    const current = await billing.findSubscriptionForUpdate(record.id, trx);
    if (!current) return;
    const now = clock();
    // Turned back on, the note that it would not renew by itself goes.
    const { error: _noted, ...cleared } = current.metadata;
    await deps.recurring.applyStateTo(
      to === 'resume' ? { ...current, metadata: cleared } : current,
      {
        status: to === 'cancel_now' ? 'canceled' : (current.status as RecurringState['status']),
        cancelAtPeriodEnd: to !== 'resume',
        canceledAt: to === 'cancel_now' ? now : current.canceledAt,
        observedAt: now,
      },
      trx,
      { byAdmin },
    );
  });
  return (await billing.findSubscription(record.id))!;
}

export const renewedHere = (record: SubscriptionRecord) => record.metadata.renewed_by === 'store';

/** Only a recurring subscription that has started and not ended can be changed. */
export function assertChangeable(record: SubscriptionRecord): void {
  if (record.billing !== 'recurring') throw new AppError(409, 'not_recurring', BILLING_MESSAGES.oneOffNotCancelable);
  const live: SubscriptionStatus[] = ['active', 'past_due'];
  const started = record.providerSubscriptionId || (renewedHere(record) && record.currentPeriodEnd);
  if (!started || !live.includes(record.status)) throw new AppError(409, 'not_renewing', BILLING_MESSAGES.notRenewing);
}

/**
 * A one-off renewal bought while auto-renew was off starts where this subscription's period ends (see
 * payment-confirmation.ts): turned back on, its next charge would pay those days a second time. So it
 * stays off; the account runs on what it paid for and is renewed by hand. (An invoice that comes anyway,
 * auto-renew turned on at the provider, is held for review by recurring-invoices.ts.)
 */
export async function assertNotPaidAhead(deps: SubscriptionControlsDeps, record: SubscriptionRecord): Promise<void> {
  if (!record.vpnAccountId || !record.currentPeriodEnd) return;
  const span = { vpnAccountId: record.vpnAccountId, billing: 'recurring' as const, startsAt: record.currentPeriodEnd, endsAt: new Date(Date.UTC(9999, 0, 1)) };
  const paidAhead = await deps.periods.overlapping(span, deps.db);
  if (paidAhead) throw new AppError(409, 'paid_ahead', BILLING_MESSAGES.paidAheadByOneOff);
}
