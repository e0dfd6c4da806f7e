import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CheckoutBody } from '../../../../../shared/billing-schemas.js';
import { CheckoutQuoteBody } from '../../../../../shared/promo-codes.js';
import type { CheckoutService } from './checkout.service.js';
import { typed } from '../../../lib/route-schemas.js';
import { CheckoutCancelledAnswer, CheckoutQuoteAnswer, CheckoutStartedAnswer, CheckoutStatusAnswer } from '../../../answers/checkout.js';

type WithSession = FastifyRequest<{ Params: { sessionId: string } }>;
type WithOrder = FastifyRequest<{ Params: { orderId: string } }>;

/**
 * The caller's checkout: started, read back and cancelled. Added to the customer's billing routes
 * (billing.routes.ts), which require a user and count every paid-for action against one per-user limit.
 */
export function addCheckoutRoutes(app: FastifyInstance, opts: { checkout: CheckoutService; perUser: (request: FastifyRequest) => Promise<void> }) {
  typed(app).post('/api/checkout', { preValidation: opts.perUser, schema: { body: CheckoutBody, response: { 200: CheckoutStartedAnswer } } }, async (request) =>
    opts.checkout.startCheckout(request.auth!.user, request.body),
  );
  // What a promo code does to a plan's price, before paying (counted like a checkout: codes are not to be guessed).
  // Without a code it says only what the customer's own referral discount does, guessing nothing: not counted.
  typed(app).post(
    '/api/checkout/quote',
    {
      preValidation: async (request) => {
        if ((request.body as { promoCode?: unknown } | undefined)?.promoCode !== undefined) await opts.perUser(request);
      },
      schema: { body: CheckoutQuoteBody, response: { 200: CheckoutQuoteAnswer } },
    },
    async (request) => opts.checkout.quote(request.auth!.user, request.body),
  );
  app.get('/api/checkout/:sessionId', { schema: { response: { 200: CheckoutStatusAnswer } } }, async (request: WithSession) =>
    opts.checkout.getCheckoutStatus(request.auth!.user, request.params.sessionId),
  );
  app.post(
    '/api/checkout/:orderId/cancel',
    { preValidation: opts.perUser, schema: { response: { 200: CheckoutCancelledAnswer } } },
    async (request: WithOrder) => opts.checkout.cancelCheckout(request.auth!.user, request.params.orderId),
  );
}
