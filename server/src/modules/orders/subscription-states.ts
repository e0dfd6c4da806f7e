import type { SubscriptionStatus } from '../../../../shared/billing.js';

/**
 * What happens to a subscription, as billing names it when it changes one's status:
 * - `paid`: a payment for it was confirmed (its first, a renewal, or a period paid by another payment);
 * - `renewal_failed`: a renewal charge was declined (the grace period runs);
 * - `renewal_recovered`: the provider reports it current again (its open invoice was paid there);
 * - `ended`: it stops for good (cancelled now, its payment refunded or lost in a dispute, the last renewal try failed,
 *   or the provider ended it).
 */
export type SubscriptionEvent = 'paid' | 'renewal_failed' | 'renewal_recovered' | 'ended';

export interface SubscriptionTransition {
  from: SubscriptionStatus;
  to: SubscriptionStatus;
  event: SubscriptionEvent;
}

/**
 * Every status change a subscription can make, and the event that makes it: the only place they are written down
 * (billing-subscriptions.repo's updateSubscription takes the event and applies this table in its UPDATE). An event
 * from a status not listed for it leaves the status as it is: `canceled` is final (a late invoice paid on an ended
 * subscription extends nothing's status), and only a payment makes an `incomplete` subscription `active`. (`ended` as
 * the customer sees it is not stored: a subscription whose period is over reads as ended, subscription-presenter.ts.)
 */
export const SUBSCRIPTION_TRANSITIONS: readonly SubscriptionTransition[] = [
  { from: 'incomplete', to: 'active', event: 'paid' },
  { from: 'past_due', to: 'active', event: 'paid' },
  { from: 'active', to: 'past_due', event: 'renewal_failed' },
  { from: 'past_due', to: 'active', event: 'renewal_recovered' },
  { from: 'incomplete', to: 'canceled', event: 'ended' },
  { from: 'active', to: 'canceled', event: 'ended' },
  { from: 'past_due', to: 'canceled', event: 'ended' },
];

/** The status a subscription in `from` has after `event` (the same status when the event does not move it from there). */
export function subscriptionStatusAfter(from: SubscriptionStatus, event: SubscriptionEvent): SubscriptionStatus {
  return SUBSCRIPTION_TRANSITIONS.find((t) => t.from === from && t.event === event)?.to ?? from;
}

/** The moves `event` makes, for an UPDATE that applies them to whatever status the row has. */
export function movesOf(event: SubscriptionEvent): readonly SubscriptionTransition[] {
  return SUBSCRIPTION_TRANSITIONS.filter((t) => t.event === event);
}
