import type { TransactionStatus } from '../../../../shared/billing.js';

/** What happened to a payment, as the repository's status changes name it. */
export type TransactionEvent =
  | 'paid'
  | 'paid_after_review'
  | 'crypto_progress'
  | 'late_payment_seen'
  | 'failed'
  | 'cancelled'
  | 'held_for_review'
  | 'refunded'
  | 'disputed'
  | 'dispute_won'
  | 'dispute_lost';

export interface TransactionTransition {
  from: TransactionStatus;
  to: TransactionStatus;
  event: TransactionEvent;
}

/**
 * Every status change a transaction can make, and the event that makes it: the only place the state
 * machine is written down. Every status change goes through billing.repo's changeTransactionStatus,
 * which takes the event and allows exactly the `from` statuses listed for it here; anything else changes
 * no row. `failed` and `cancelled` are both closed without payment: one the provider declined or let
 * expire, the other the customer walked away from. `refunded` is final: a refund that fails later lowers the refunded total but leaves the status
 * (what the refund ended stays ended; the admin can refund again), and `succeeded` never becomes failed.
 */
export const TRANSACTION_TRANSITIONS: readonly TransactionTransition[] = [
  { from: 'pending', to: 'succeeded', event: 'paid' },
  // Paid after it closed: a crypto invoice paid late and confirmed, a card checkout paid after a failed try.
  { from: 'failed', to: 'succeeded', event: 'paid' },
  // A crypto invoice closed part-paid whose rest came late and confirmed (or that the operator marked settled).
  { from: 'needs_review', to: 'succeeded', event: 'paid_after_review' },
  // What BTCPay has seen on an open invoice, recorded while it stays pending.
  { from: 'pending', to: 'pending', event: 'crypto_progress' },
  // A payment seen on an invoice closed as expired: open again while it confirms.
  { from: 'failed', to: 'pending', event: 'late_payment_seen' },
  { from: 'pending', to: 'failed', event: 'failed' },
  // The customer came back with Cancel and the checkout was closed: not a failure, nothing was charged.
  { from: 'pending', to: 'cancelled', event: 'cancelled' },
  // A cancelled checkout that was paid after all (paid in another tab before it closed), or a payment seen
  // on a cancelled crypto invoice: treated as on a failed one.
  { from: 'cancelled', to: 'succeeded', event: 'paid' },
  { from: 'cancelled', to: 'pending', event: 'late_payment_seen' },
  { from: 'cancelled', to: 'needs_review', event: 'held_for_review' },
  // Paid, but not what was ordered (or for days already paid): nothing is delivered until an admin acts.
  { from: 'pending', to: 'needs_review', event: 'held_for_review' },
  { from: 'failed', to: 'needs_review', event: 'held_for_review' },
  { from: 'succeeded', to: 'refunded', event: 'refunded' },
  { from: 'disputed', to: 'refunded', event: 'refunded' },
  { from: 'needs_review', to: 'refunded', event: 'refunded' },
  { from: 'succeeded', to: 'disputed', event: 'disputed' },
  { from: 'disputed', to: 'succeeded', event: 'dispute_won' },
  { from: 'disputed', to: 'refunded', event: 'dispute_lost' },
  // The operator marked a delivered crypto invoice invalid: taken back as a lost dispute.
  { from: 'succeeded', to: 'refunded', event: 'dispute_lost' },
  // A dispute kept while the payment was unconfirmed, lost, applied when the payment closed under review.
  { from: 'needs_review', to: 'refunded', event: 'dispute_lost' },
];

/** The status an event leads to (each event has one). */
export function targetOf(event: TransactionEvent): TransactionStatus {
  const transition = TRANSACTION_TRANSITIONS.find((t) => t.event === event);
  if (!transition) throw new Error(`No transition for the event ${event}`);
  return transition.to;
}

/** The statuses the event may start from. */
export function sourcesOf(event: TransactionEvent): TransactionStatus[] {
  return TRANSACTION_TRANSITIONS.filter((t) => t.event === event).map((t) => t.from);
}
