import type { AdminSubscription, ProviderRead, Subscription } from '../../../../shared/billing.js';
import type { SubscriptionRecord } from './billing.repo.js';
import { graceEndOf } from './ledger/paid-period.js';
import { nextChargeAmount } from './promo-terms.js';
import { READ_SCHEDULE } from './recurring/reconcile-policy.js';
import type { ProviderReadRecord } from './recurring/reconcile-schedule.repo.js';
import type { AdminSubscriptionRow } from './recurring/subscriptions-admin.repo.js';
import { subscriptionCurrency } from './subscription-currency.js';

/**
 * A subscription as the customer (and the admin) sees it. A one-off purchase is `ended` once its
 * period is over; a recurring one says when it renews, for how much, and until when a past_due one
 * keeps working (`graceMs` after its first failed charge).
 */
export function toSubscription(record: SubscriptionRecord, now: Date, graceMs: number): Subscription {
  const recurring = record.billing === 'recurring';
  const over = record.currentPeriodEnd !== null && record.currentPeriodEnd <= now;
  const ended = !recurring && record.status === 'active' && over;
  const autoRenews = recurring && (record.status === 'active' || record.status === 'past_due') && !record.cancelAtPeriodEnd && record.currentPeriodEnd !== null;
  const graceEnd = recurring ? graceEndOf(record, graceMs) : null;
  return {
    id: record.id,
    status: ended ? 'ended' : record.status,
    billing: record.billing,
    vpnAccountId: record.vpnAccountId,
    planId: record.planId,
    planName: record.metadata.plan_name,
    price: record.metadata.price,
    currency: subscriptionCurrency(record.metadata),
    providerName: record.providerName,
    renewal: record.metadata.kind === 'renewal',
    autoRenews,
    renewsAt: autoRenews ? record.currentPeriodEnd!.toISOString() : null,
    renewalAmount: autoRenews ? nextChargeAmount(record, record.currentPeriodEnd!) : null,
    currentPeriodStart: record.currentPeriodStart?.toISOString() ?? null,
    currentPeriodEnd: record.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
    canceledAt: record.canceledAt?.toISOString() ?? null,
    graceEndsAt: graceEnd?.toISOString() ?? null,
    error: record.metadata.error ?? null,
    createdAt: record.createdAt.toISOString(),
  };
}

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
    ...toSubscription(row.record, now, graceMs), userId: row.record.userId, userEmail: row.userEmail, vpnAccountUsername: row.username,
    providerRead: row.read ? toProviderRead(row.read) : null,
  };
}
