import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PaymentWebhooksService } from './payment-webhooks.service.js';
import { WebhookReceivedAnswer } from '../../../answers/billing.js';

/** Stripe's and BTCPay's events are a few KB; a bigger body is refused (413) before it is read. */
export const WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

/**
 * The payment providers' webhooks: Stripe (card), the operator's BTCPay Server (crypto), YooKassa and Crypto
 * Pay. The body stays raw (a Buffer) because each signature covers its exact bytes.
 */
export async function paymentWebhookRoutes(app: FastifyInstance, opts: { webhooks: PaymentWebhooksService }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // The acknowledgement; a refused event is the usual `{ code, message }`.
  const schema = { response: { 200: WebhookReceivedAnswer } };
  const rawBody = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
  app.post('/api/webhooks/stripe', { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES, schema }, async (request) =>
    opts.webhooks.handleWebhook('card', rawBody(request), request.headers),
  );
  app.post('/api/webhooks/btcpay', { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES, schema }, async (request) =>
    opts.webhooks.handleWebhook('crypto', rawBody(request), request.headers),
  );
  // Unsigned: the payment or refund it names is read back from YooKassa, and only that is applied.
  app.post('/api/webhooks/yookassa', { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES, schema }, async (request) =>
    opts.webhooks.handleWebhook('yookassa', rawBody(request), request.headers),
  );
  app.post('/api/webhooks/cryptopay', { bodyLimit: WEBHOOK_BODY_LIMIT_BYTES, schema }, async (request) =>
    opts.webhooks.handleWebhook('cryptopay', rawBody(request), request.headers),
  );
}
