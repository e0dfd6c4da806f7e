import type { SubscriptionStatus } from '../../../../../shared/billing.js';
import { addSeconds } from '../../../lib/clock.js';

/**
 * Recurring subscriptions the provider can still move without us hearing (a renewal charged, a card
 * fixed, a cancellation): `canceled` is final. Stripe's unpaid and paused are our past_due.
 */
export const LIVE_RECURRING_STATUSES = ['incomplete', 'active', 'past_due'] as const satisfies readonly SubscriptionStatus[];

const HOUR = 3600;

/** How often the reconcile job reads each live subscription from its provider. */
export const READ_SCHEDULE = {
  /** Every live subscription, whatever else happens: a lost webhook costs at most a day. */
  dailySeconds: 24 * HOUR,
  /** Stripe charges a renewal about an hour after the period ends: the first look after the end. */
  afterPeriodEndSeconds: 2 * HOUR,
  /** The period is over and no renewal has reached us: look again every hour until one does (or it ends). */
  overdueSeconds: HOUR,
  /** Waiting for a card to be fixed: Stripe retries over days, the grace period is days. */
  pastDueSeconds: 3 * HOUR,
  /** Paid at checkout but no paid invoice yet: the account is being waited for. */
  incompleteSeconds: 15 * 60,
  /** A failing read backs off alone: 5 min, 10, 20 … at most 6 h. */
  failureBaseSeconds: 5 * 60,
  failureMaxSeconds: 6 * HOUR,
  /** A row taken by a pass is not taken by another this long (a pass that died gives it back after). */
  claimSeconds: 10 * 60,
  /** Failed reads in a row after which the admin is shown the subscription (about 35 minutes of failing). */
  failuresShown: 3,
} as const;

/** When to read a subscription again after a read that worked, from what it is now. */
export function nextReadAfterSuccess(subscription: { status: SubscriptionStatus; currentPeriodEnd: Date | null }, now: Date): Date {
  const daily = addSeconds(now, READ_SCHEDULE.dailySeconds);
  if (subscription.status === 'incomplete') return addSeconds(now, READ_SCHEDULE.incompleteSeconds);
  if (subscription.status === 'past_due') return addSeconds(now, READ_SCHEDULE.pastDueSeconds);
  const end = subscription.currentPeriodEnd;
  if (!end) return daily;
  if (end <= now) return addSeconds(now, READ_SCHEDULE.overdueSeconds);
  const renewalDue = addSeconds(end, READ_SCHEDULE.afterPeriodEndSeconds);
  return renewalDue < daily ? renewalDue : daily;
}

/** When to try again after `failures` failed reads in a row (1 or more). */
export function nextTryAfterFailure(failures: number, now: Date): Date {
  const seconds = Math.min(READ_SCHEDULE.failureMaxSeconds, READ_SCHEDULE.failureBaseSeconds * 2 ** Math.max(0, Math.min(failures - 1, 20)));
  return addSeconds(now, seconds);
}
