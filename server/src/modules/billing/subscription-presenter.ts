import type { AdminSubscription, ProviderRead, SavedPaymentMethod, Subscription } from '../../../../shared/billing.js';
import type { SubscriptionRecord } from './billing.repo.js';
import { graceEndOf } from './ledger/paid-period.js';
import { nextChargeAmount } from './promo-terms.js';
import { READ_SCHEDULE } from './recurring/reconcile-policy.js';
import type { ProviderReadRecord } from './recurring/reconcile-schedule.repo.js';
import { chargeDateOf } from './recurring/store-renewal-schedule.js';
import type { AdminSubscriptionRow } from './recurring/subscriptions-admin.repo.js';
import { subscriptionCurrency } from './subscription-currency.js';

/**
 * A subscription as the customer (and the admin) sees it. A one-off purchase is `ended` once its
 * period is over; a recurring one says when it renews, for how much, and until when a past_due one
 * keeps working (`graceMs` after its first failed charge).
 */
/**
 * `savedMethods`: the customer's saved cards still kept, by id (a plan renewed here shows the one it renews with).
 */
export function toSubscription(
  record: SubscriptionRecord,
  now: Date,
  graceMs: number,
  savedMethods: ReadonlyMap<string, SavedPaymentMethod> = new Map(),
): Subscription {
  const recurring = record.billing === 'recurring';
  const over = record.currentPeriodEnd !== null && record.currentPeriodEnd <= now;
  const ended = !recurring && record.status === 'active' && over;
  const autoRenews = recurring && (record.status === 'active' || record.status === 'past_due') && !record.cancelAtPeriodEnd && record.currentPeriodEnd !== null;
  const renewedHere = record.metadata.renewed_by === 'store';
  // A plan renewed here is charged days before its period ends (and runs to that end whatever happens); the others at the end, with a grace period after a decline.
  const chargedAt = autoRenews ? (renewedHere ? later(now, chargeDateOf(record, record.currentPeriodEnd!)) : record.currentPeriodEnd!) : null;
  const graceEnd = recurring ? (renewedHere ? (record.status === 'past_due' ? record.currentPeriodEnd : null) : graceEndOf(record, graceMs)) : null;
  return {
    id: record.id,
    status: ended ? 'ended' : record.status,
    billing: record.billing,
    vpnAccountId: record.vpnAccountId,
    planId: record.planId,
    planName: record.metadata.plan_name,
    // The names kept with the order: the customer's language names it even once the plan is off sale.
    ...(record.metadata.plan_names && Object.keys(record.metadata.plan_names).length > 0 ? { planNames: record.metadata.plan_names } : {}),
    price: record.metadata.price,
    currency: subscriptionCurrency(record.metadata),
    providerName: record.providerName,
    renewal: record.metadata.kind === 'renewal',
    autoRenews,
    renewsAt: chargedAt?.toISOString() ?? null,
    renewalAmount: autoRenews ? nextChargeAmount(record, record.currentPeriodEnd!) : null,
    currentPeriodStart: record.currentPeriodStart?.toISOString() ?? null,
    currentPeriodEnd: record.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
    canceledAt: record.canceledAt?.toISOString() ?? null,
    graceEndsAt: graceEnd?.toISOString() ?? null,
    error: record.metadata.error ?? null,
    createdAt: record.createdAt.toISOString(),
    renewedHere,
    savedMethod: renewedHere && record.savedMethodId ? (savedMethods.get(record.savedMethodId) ?? null) : null,
  };
}

const later = (a: Date, b: Date): Date => (a > b ? a : b);

/** How reading it from the provider goes: `failing` once it has failed often enough that the admin should look. */
export function toProviderRead(read: ProviderReadRecord): ProviderRead {
  return {
    lastReadAt: read.lastReadAt?.toISOString() ?? null,
    failures: read.failures,
    lastError: read.lastError,
    nextTryAt: read.nextTryAt.toISOString(),
    failing: read.failures >= READ_SCHEDULE.failuresShown,
  };
}

/** A subscription as the admin's list shows it: whose it is, and whether the provider can be asked about it. */
export function toAdminSubscription(row: AdminSubscriptionRow, now: Date, graceMs: number): AdminSubscription {
  return {
    ...toSubscription(row.record, now, graceMs),
    userId: row.record.userId,
    userEmail: row.userEmail,
    vpnAccountUsername: row.username,
    providerRead: row.read ? toProviderRead(row.read) : null,
  };
}
