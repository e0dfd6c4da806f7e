/**
 * Notifications as YooKassa sends them: a POST of `{ type: "notification", event, object }` with
 * `Content-Type: application/json` and no signature of any kind (a receiver must fetch the object again to
 * trust it). The fake makes one attempt per event, with the shared 10 s limit.
 */
import { postOnce } from '../webhook-delivery.js';
import type { Notice } from './payments.js';
import type { YookassaNotification } from './yookassa-objects.js';

export { DELIVERY_TIMEOUT_MS } from '../webhook-delivery.js';

export const NOTIFICATION_HEADERS = { 'content-type': 'application/json' } as const;

export const notificationOf = (notice: Notice): YookassaNotification => ({ type: 'notification', event: notice.event, object: notice.object });

/** POSTs a body once; resolves to the HTTP status or 'error' (refused, reset, timed out, aborted); never rejects. */
export function postNotification(url: string, body: string, signal?: AbortSignal): Promise<number | 'error'> {
  return postOnce(url, body, { ...NOTIFICATION_HEADERS }, signal);
}
