/**
 * Runs the fake BTCPay Server on its own, for a local demo:
 *   FAKE_BTCPAY_WEBHOOK_URL=http://localhost:3000/api/webhooks/btcpay npx tsx server/test/fake-btcpay/serve.ts
 * then save the printed server address, store id, API key and webhook secret in the admin's crypto
 * payment settings. Environment: FAKE_BTCPAY_API_KEY (default btcpay_fake_api_key), FAKE_BTCPAY_STORE_ID
 * (default FakeStore1), FAKE_BTCPAY_WEBHOOK_SECRET (default btcpay_fake_webhook_secret),
 * FAKE_BTCPAY_WEBHOOK_URL (default none), FAKE_BTCPAY_PORT (default 12112).
 */
import { startFakeBtcpay } from './fake-btcpay.js';

const apiKey = process.env.FAKE_BTCPAY_API_KEY || 'btcpay_fake_api_key';
const storeId = process.env.FAKE_BTCPAY_STORE_ID || 'FakeStore1';
const webhookSecret = process.env.FAKE_BTCPAY_WEBHOOK_SECRET || 'btcpay_fake_webhook_secret';
const webhookUrl = process.env.FAKE_BTCPAY_WEBHOOK_URL || null;
const fake = await startFakeBtcpay({ apiKey, storeId, webhookSecret, webhookUrl, port: Number(process.env.FAKE_BTCPAY_PORT || 12112) });
process.stdout.write(
  `Fake BTCPay Server listening on ${fake.url}\n  server URL: ${fake.url}\n  store id: ${storeId}\n  API key: ${apiKey}\n` +
    `  webhook secret: ${webhookSecret}\n  webhook URL: ${webhookUrl ?? '(none: set FAKE_BTCPAY_WEBHOOK_URL)'}\n`,
);
const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
