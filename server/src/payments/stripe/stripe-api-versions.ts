/**
 * Which shape a webhook event's invoices and subscriptions are in. An event arrives in the API version of the
 * webhook endpoint that sends it (chosen in the Stripe Dashboard), not the SDK's: 2025-03-31 (basil) moved an
 * invoice's subscription under `parent`, its payment into `payments` and a subscription's period onto its items.
 */

/** The oldest version whose invoice and subscription events are read (the shape before basil). */
export const OLDEST_READABLE_VERSION = '2024-06-20';

/** The first version in the shape the SDK reads and writes (`parent`, `payments`, item periods). */
export const PARENT_SHAPE_SINCE = '2025-03-31';

/** 'legacy': 2024-06-20 up to basil (`invoice.subscription`, `invoice.payment_intent`, `subscription.current_period_end`). */
export type BillingShape = 'legacy' | 'current';

/** `2024-06-20`, `2025-03-31.basil`: the date decides the shape; the name after it only repeats the release. */
const VERSION = /^(\d{4}-\d{2}-\d{2})(?:\.[a-z]+)?$/;

/** The shape of an event in `apiVersion`; null for a version too old (or not a version at all) to be read. */
export function billingShapeOf(apiVersion: string | null | undefined): BillingShape | null {
  const date = VERSION.exec(apiVersion ?? '')?.[1];
  if (!date || date < OLDEST_READABLE_VERSION) return null;
  return date < PARENT_SHAPE_SINCE ? 'legacy' : 'current';
}
