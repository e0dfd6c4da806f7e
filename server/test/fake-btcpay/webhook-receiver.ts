/** The shared webhook receiver (../webhook-receiver.ts), with BTCPay's deliveries picked out by type. */
import * as shared from '../webhook-receiver.js';

/** What every delivery of the fake carries (the rest depends on its type). */
type DeliveryPayload = Record<string, unknown> & { deliveryId: string; type: string; invoiceId: string };

/** A delivery the fake sent: its body is always JSON. */
export type ReceivedWebhook = shared.ReceivedPost<DeliveryPayload> & { payload: DeliveryPayload };

export interface WebhookReceiver extends shared.WebhookReceiver<DeliveryPayload> {
  /** The received deliveries of one type, in order. */
  ofType(type: string): ReceivedWebhook[];
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = await shared.startWebhookReceiver<DeliveryPayload>('/api/webhooks/btcpay');
  return {
    ...receiver,
    ofType: (type) => receiver.received.filter((r): r is ReceivedWebhook => r.payload?.type === type),
  };
}
