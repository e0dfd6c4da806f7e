import { afterAll, beforeAll } from 'vitest';
import { appAddress, postToApp, type BillingFixture } from './billing-fixture.js';
import { startFakeCryptopay, type FakeCryptopay } from './fake-cryptopay/index.js';

/** The app the billing tests' Crypto Pay has, and the token the admin saves for it. */
export const CRYPTOPAY = { apiToken: '12345:AAfixtureCryptoPayToken0123456789abcd', network: 'testnet' as const, appName: 'Fixture Shop' };

export interface CryptopayFixture {
  /** The fake, once the suite has started (read it inside tests and hooks). */
  readonly fake: FakeCryptopay;
  /** The address of its API, for CRYPTOPAY_API_URL (started before the app: pass `() => shop.env()` to the billing fixture). */
  env(): Record<string, string>;
  /** Where the app takes Crypto Pay's webhooks. */
  webhookUrl(): string;
  /** Posts a body to that webhook as Crypto Pay would, signed or not. */
  post(body: string, signature?: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * A fake Crypto Pay over real HTTP for a billing fixture's app: started before the app (register it first), its
 * webhook pointed at the app once the app listens. Saving the settings is each suite's own business.
 */
export function useFakeCryptopay(getFixture: () => BillingFixture): CryptopayFixture {
  let fake: FakeCryptopay | undefined;
  const webhookUrl = () => appAddress(getFixture(), '/api/webhooks/cryptopay');
  beforeAll(async () => {
    fake = await startFakeCryptopay({ token: CRYPTOPAY.apiToken, network: CRYPTOPAY.network, appName: CRYPTOPAY.appName });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const handle: CryptopayFixture = {
    get fake() {
      if (!fake) throw new Error('the fake Crypto Pay is not started yet');
      return fake;
    },
    env: () => ({ CRYPTOPAY_API_URL: `${handle.fake.url}/api` }),
    webhookUrl,
    post: (body, signature) => postToApp(webhookUrl(), body, signature ? { 'crypto-pay-api-signature': signature } : {}),
  };
  return handle;
}
