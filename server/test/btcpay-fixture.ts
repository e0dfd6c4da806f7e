import { afterAll, beforeAll } from 'vitest';
import type { BillingFixture } from './billing-fixture.js';
import { startFakeBtcpay, type FakeBtcpay } from './fake-btcpay/index.js';

/** The store the billing tests' BTCPay Server has, and the keys the admin saves for it. */
export const BTCPAY = { apiKey: 'fixture-btcpay-api-key-0123456789', storeId: 'FixtureStore1', webhookSecret: 'fixture-btcpay-webhook-secret' };

export interface BtcpayFixture {
  /** The fake, once the suite has started (read it inside tests and hooks). */
  readonly fake: FakeBtcpay;
  /** Where the app takes BTCPay's webhooks (the listening app of the billing fixture). */
  webhookUrl(): string;
  /** Posts a body to that webhook as BTCPay would, signed or not. */
  post(body: string, signature?: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * A fake BTCPay Server for a billing fixture's app, over real HTTP: started before the suite with its
 * webhook pointed at the app, closed after it. Saving the crypto settings is each suite's own business.
 */
export function useFakeBtcpay(f: BillingFixture): BtcpayFixture {
  let fake: FakeBtcpay | undefined;
  const webhookUrl = () => {
    const address = f.t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('app is not listening');
    return `http://127.0.0.1:${address.port}/api/webhooks/btcpay`;
  };
  beforeAll(async () => {
    fake = await startFakeBtcpay({ ...BTCPAY });
    fake.setWebhookUrl(webhookUrl());
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    get fake() {
      if (!fake) throw new Error('the fake BTCPay Server is not started yet');
      return fake;
    },
    webhookUrl,
    async post(body, signature) {
      const res = await fetch(webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'btcpay-sig': signature } : {}) },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
  };
}
