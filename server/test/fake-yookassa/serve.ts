/**
 * Runs the fake YooKassa on its own, for a local demo:
 *   FAKE_YOOKASSA_WEBHOOK_URL=http://localhost:3000/api/webhooks/yookassa npx tsx server/test/fake-yookassa/serve.ts
 * then start the server with YOOKASSA_API_URL set to the printed API address, and save the printed shop id
 * and secret key in the admin's YooKassa payment settings. Environment: FAKE_YOOKASSA_SHOP_ID (default
 * 123456), FAKE_YOOKASSA_SECRET_KEY (default test_fakeYooKassaSecretKeyForLocalDemo), FAKE_YOOKASSA_WEBHOOK_URL
 * (default none), FAKE_YOOKASSA_PORT (default 12114).
 */
import { startFakeYookassa } from './fake-yookassa.js';

const shopId = process.env.FAKE_YOOKASSA_SHOP_ID || '123456';
const secretKey = process.env.FAKE_YOOKASSA_SECRET_KEY || 'test_fakeYooKassaSecretKeyForLocalDemo';
const webhookUrl = process.env.FAKE_YOOKASSA_WEBHOOK_URL || null;
const fake = await startFakeYookassa({ shopId, secretKey, webhookUrl, port: Number(process.env.FAKE_YOOKASSA_PORT || 12114) });
process.stdout.write(
  `Fake YooKassa listening on ${fake.url}\n  API URL (YOOKASSA_API_URL): ${fake.url}/v3\n  shop id: ${shopId}\n  secret key: ${secretKey}\n` +
    `  notification URL: ${webhookUrl ?? '(none: set FAKE_YOOKASSA_WEBHOOK_URL, e.g. http://localhost:3000/api/webhooks/yookassa)'}\n`,
);
const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
