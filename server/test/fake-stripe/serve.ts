/**
 * Runs the fake Stripe server on its own, for a local demo:
 *   FAKE_STRIPE_WEBHOOK_URL=http://localhost:3000/api/webhooks/stripe npx tsx server/test/fake-stripe/serve.ts
 * then start the app with STRIPE_API_URL set to the printed address and the same keys.
 * Environment: FAKE_STRIPE_SECRET_KEY (default sk_test_fake), FAKE_STRIPE_WEBHOOK_SECRET (default whsec_fake),
 * FAKE_STRIPE_WEBHOOK_URL (default none), FAKE_STRIPE_PORT (default 12111).
 */
import { startFakeStripe } from './fake-stripe.js';

const secretKey = process.env.FAKE_STRIPE_SECRET_KEY || 'sk_test_fake';
const webhookSecret = process.env.FAKE_STRIPE_WEBHOOK_SECRET || 'whsec_fake';
const fake = await startFakeStripe({
  secretKey,
  webhookSecret,
  webhookUrl: process.env.FAKE_STRIPE_WEBHOOK_URL || null,
  port: Number(process.env.FAKE_STRIPE_PORT || 12111),
});
process.stdout.write(`Fake Stripe listening on ${fake.url}\n  STRIPE_API_URL=${fake.url}\n  secret key: ${secretKey}\n  webhook secret: ${webhookSecret}\n`);
const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
