import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CheckoutBody } from '../../../../../shared/billing-schemas.js';
import { CheckoutQuoteBody } from '../../../../../shared/promo-codes.js';
import { parseInput } from '../../../lib/parse.js';
import type { CheckoutService } from './checkout.service.js';

type WithSession = FastifyRequest<{ Params: { sessionId: string } }>;
type WithOrder = FastifyRequest<{ Params: { orderId: string } }>;

/**
 * The caller's checkout: started, read back and cancelled. Added to the customer's billing routes
 * (billing.routes.ts), which require a user and count every paid-for action against one per-user limit.
 */
export function addCheckoutRoutes(app: FastifyInstance, opts: { checkout: CheckoutService; perUser: (request: FastifyRequest) => Promise<void> }) {
  app.post('/api/checkout', { preHandler: opts.perUser }, async (request) =>
    opts.checkout.startCheckout(request.auth!.user, parseInput(CheckoutBody, request.body)));
  // What a promo code does to a plan's price, before paying (counted like a checkout: codes are not to be guessed).
  // Without a code it says only what the customer's own referral discount does, guessing nothing: not counted.
  app.post('/api/checkout/quote', {
    preHandler: async (request) => {
      if ((request.body as { promoCode?: unknown } | undefined)?.promoCode !== undefined) await opts.perUser(request);
    },
  }, async (request) => opts.checkout.quote(request.auth!.user, parseInput(CheckoutQuoteBody, request.body)));
  app.get('/api/checkout/:sessionId', async (request: WithSession) => opts.checkout.getCheckoutStatus(request.auth!.user, request.params.sessionId));
  app.post('/api/checkout/:orderId/cancel', { preHandler: opts.perUser }, async (request: WithOrder) =>
    opts.checkout.cancelCheckout(request.auth!.user, request.params.orderId));
}
