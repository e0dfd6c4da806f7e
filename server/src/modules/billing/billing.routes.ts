import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CheckoutBody } from '../../../../shared/billing-schemas.js';
import { parseInput } from '../../lib/parse.js';
import type { LimitRule } from '../../plugins/rate-limit.js';
import type { BillingService } from './billing.service.js';
import type { CheckoutService } from './checkout.service.js';
import type { SubscriptionControls } from './subscription-controls.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;
type WithSession = FastifyRequest<{ Params: { sessionId: string } }>;

/** Card checkout and the caller's own subscriptions and transactions (someone else's are a 404). */
export async function billingRoutes(app: FastifyInstance, opts: { checkout: CheckoutService; billing: BillingService; controls: SubscriptionControls; checkoutLimit: LimitRule }) {
  app.addHook('preHandler', app.requireUser);
  const perUser = app.limiter('checkout-user', opts.checkoutLimit, (request) => request.auth!.user.id);

  app.post('/api/checkout', { preHandler: perUser }, async (request) =>
    opts.checkout.startCheckout(request.auth!.user, parseInput(CheckoutBody, request.body)));
  app.get('/api/checkout/:sessionId', async (request: WithSession) => opts.checkout.getCheckoutStatus(request.auth!.user, request.params.sessionId));
  app.post('/api/checkout/:orderId/cancel', { preHandler: perUser }, async (request: FastifyRequest<{ Params: { orderId: string } }>) =>
    opts.checkout.cancelCheckout(request.auth!.user, request.params.orderId));
  app.get('/api/subscriptions', async (request) => opts.billing.listSubscriptions(request.auth!.user));
  app.post('/api/subscriptions/:id/cancel', { preHandler: perUser }, async (request: WithId) => opts.controls.cancel(request.auth!.user, request.params.id));
  app.post('/api/subscriptions/:id/resume', { preHandler: perUser }, async (request: WithId) => opts.controls.resume(request.auth!.user, request.params.id));
  app.post('/api/billing/portal', { preHandler: perUser }, async (request) => opts.controls.openPortal(request.auth!.user));
  app.get('/api/transactions', async (request) => opts.billing.listTransactions(request.auth!.user));
}

/** Stripe's and BTCPay's events are a few KB; a bigger body is refused (413) before it is read. */
export const STRIPE_WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

/**
 * The payment providers' webhooks: Stripe (card) and the operator's BTCPay Server (crypto). The body
 * stays raw (a Buffer) because each signature covers its exact bytes.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, opts: { billing: BillingService }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const rawBody = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
  app.post('/api/webhooks/stripe', { bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT_BYTES }, async (request) =>
    opts.billing.handleWebhook('card', rawBody(request), request.headers));
  app.post('/api/webhooks/btcpay', { bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT_BYTES }, async (request) =>
    opts.billing.handleWebhook('crypto', rawBody(request), request.headers));
}
