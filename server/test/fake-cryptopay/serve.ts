/**
 * Runs the fake Crypto Pay on its own, for a local demo:
 *   FAKE_CRYPTOPAY_WEBHOOK_URL=http://localhost:3000/api/webhooks/cryptopay npx tsx server/test/fake-cryptopay/serve.ts
 * then start the storefront with the printed CRYPTOPAY_API_URL (the driver then calls the fake instead of
 * testnet-pay.crypt.bot), and save the printed network and token in the admin's Crypto Pay settings. Pay an
 * invoice on its page: the invoice's web_app_invoice_url. Environment: FAKE_CRYPTOPAY_TOKEN (default
 * 12345:AAfakeCryptoPayTokenForLocalDemo00000), FAKE_CRYPTOPAY_WEBHOOK_URL (default none),
 * FAKE_CRYPTOPAY_PORT (default 12113).
 */
import { startFakeCryptopay } from './fake-cryptopay.js';

const token = process.env.FAKE_CRYPTOPAY_TOKEN || '12345:AAfakeCryptoPayTokenForLocalDemo00000';
const webhookUrl = process.env.FAKE_CRYPTOPAY_WEBHOOK_URL || null;
const fake = await startFakeCryptopay({ token, webhookUrl, network: 'testnet', port: Number(process.env.FAKE_CRYPTOPAY_PORT || 12113) });
process.stdout.write(
  `Fake Crypto Pay listening on ${fake.url}\n` +
    `  start the storefront with: CRYPTOPAY_API_URL=${fake.url}/api\n` +
    `  admin settings: network testnet, API token ${token}\n` +
    `  app id: ${fake.appId}\n  webhook URL: ${webhookUrl ?? '(none: set FAKE_CRYPTOPAY_WEBHOOK_URL)'}\n`,
);
const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
