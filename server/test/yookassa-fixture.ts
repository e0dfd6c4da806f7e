import { afterAll, beforeAll } from 'vitest';
import { appAddress, postToApp, type BillingFixture } from './billing-fixture.js';
import { startFakeYookassa, type FakeYookassa } from './fake-yookassa/index.js';

/** The shop the billing tests' YooKassa has, and the keys the admin saves for it. */
export const YOOKASSA = { shopId: '506751', secretKey: 'test_fixtureYooKassaSecretKey0123456789' };

export interface YookassaFixture {
  /** The fake, once the suite has started (read it inside tests and hooks). */
  readonly fake: FakeYookassa;
  /** YOOKASSA_API_URL for the app (pass `() => shop.env()` to the billing fixture). */
  env(): Record<string, string>;
  /** Where the app takes YooKassa's notifications. */
  webhookUrl(): string;
  /** Posts a body to that endpoint as YooKassa would (unsigned, like every YooKassa notification). */
  post(body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * A fake YooKassa over real HTTP for a billing fixture's app: started before the app (register it first), its
 * notifications pointed at the app once it listens. Saving the settings is each suite's own business.
 */
export function useFakeYookassa(getFixture: () => BillingFixture, options: { fiscalization?: boolean } = {}): YookassaFixture {
  let fake: FakeYookassa | undefined;
  const webhookUrl = () => appAddress(getFixture(), '/api/webhooks/yookassa');
  beforeAll(async () => {
    fake = await startFakeYookassa({ ...YOOKASSA, fiscalization: options.fiscalization ?? false });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const handle: YookassaFixture = {
    get fake() {
      if (!fake) throw new Error('the fake YooKassa is not started yet');
      return fake;
    },
    env: () => ({ YOOKASSA_API_URL: `${handle.fake.url}/v3` }),
    webhookUrl,
    post: (body) => postToApp(webhookUrl(), typeof body === 'string' ? body : JSON.stringify(body)),
  };
  return handle;
}
