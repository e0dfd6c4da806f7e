/** What the fake's tests share: a fake with a notification receiver, and a small client that speaks its HTTP. */
import { randomUUID } from 'node:crypto';
import * as shared from '../webhook-receiver.js';
import { startFakeYookassa, type FakeYookassa, type FakeYookassaOptions, type YookassaPayment } from './index.js';

export const SHOP_ID = '123456';
export const SECRET_KEY = 'test_fakeSecretKey';
export const RETURN_URL = 'https://shop.example/return?order=1';

export interface ApiCall {
  body?: unknown;
  /** The Idempotence-Key; a fresh UUID on a POST unless given (null sends none). */
  key?: string | null;
  /** The Authorization header; the right Basic credentials unless given (null sends none). */
  authorization?: string | null;
  contentType?: string | null;
}

export interface ApiResult {
  status: number;
  /** The JSON body (or null when empty or not JSON). */
  json: any;
  headers: Headers;
}

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A redirect payment body: 199.00 RUB, two-stage unless `capture` is given. */
export const paymentBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  amount: { value: '199.00', currency: 'RUB' },
  confirmation: { type: 'redirect', return_url: RETURN_URL },
  description: 'VPN, 1 month',
  metadata: { order_id: 'o-1' },
  ...overrides,
});

/** A notification's body as the tests read it (a forged post may send anything). */
type NotificationPayload = { type?: string; event?: string; object?: { id?: string; status?: string } & Record<string, unknown> };

export type ReceivedNotification = shared.ReceivedPost<NotificationPayload>;

export interface WebhookReceiver extends shared.WebhookReceiver<NotificationPayload> {
  /** The received notifications of one event, in order. */
  ofEvent(event: string): ReceivedNotification[];
}

async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = await shared.startWebhookReceiver<NotificationPayload>('/api/webhooks/yookassa');
  return { ...receiver, ofEvent: (event) => receiver.received.filter((r) => r.payload?.event === event) };
}

export interface Kit {
  fake: FakeYookassa;
  receiver: WebhookReceiver;
  api(method: string, path: string, call?: ApiCall): Promise<ApiResult>;
  /** Creates a payment (expecting 200) and returns it. */
  createPayment(overrides?: Record<string, unknown>, key?: string): Promise<YookassaPayment>;
  /** A payment paid by card with save_payment_method: its saved method's id. */
  savedCardId(overrides?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function startKit(options: Partial<FakeYookassaOptions> = {}): Promise<Kit> {
  const receiver = await startWebhookReceiver();
  const fake = await startFakeYookassa({ shopId: SHOP_ID, secretKey: SECRET_KEY, webhookUrl: receiver.url, ...options });

  const api: Kit['api'] = async (method, path, call = {}) => {
    const headers: Record<string, string> = {};
    const authorization = call.authorization === undefined ? basic(SHOP_ID, SECRET_KEY) : call.authorization;
    if (authorization !== null) headers.authorization = authorization;
    const key = call.key === undefined ? (method === 'POST' ? randomUUID() : null) : call.key;
    if (key !== null) headers['idempotence-key'] = key;
    const contentType = call.contentType === undefined ? (call.body === undefined ? null : 'application/json') : call.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
    const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    const response = await fetch(`${fake.url}/v3${path}`, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json, headers: response.headers };
  };

  const createPayment: Kit['createPayment'] = async (overrides = {}, key) => {
    const result = await api('POST', '/payments', { body: paymentBody(overrides), ...(key === undefined ? {} : { key }) });
    if (result.status !== 200) throw new Error(`create payment answered ${result.status}: ${JSON.stringify(result.json)}`);
    return result.json as YookassaPayment;
  };

  return {
    fake,
    receiver,
    api,
    createPayment,
    async savedCardId(overrides = {}) {
      const payment = await createPayment({ save_payment_method: true, capture: true, ...overrides });
      await fake.pay(payment.id);
      return fake.getPayment(payment.id)!.payment_method!.id;
    },
    async close() {
      await fake.close();
      await receiver.close();
    },
  };
}
