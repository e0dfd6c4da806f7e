import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CheckoutBody } from '../../../../../shared/billing-schemas.js';
import { CheckoutQuoteBody } from '../../../../../shared/promo-codes.js';
import type { CheckoutService } from './checkout.service.js';
import { NoContent, typed } from '../../../lib/route-schemas.js';
import {
  CheckoutCancelledAnswer,
  CheckoutQuoteAnswer,
  CheckoutStartedAnswer,
  CheckoutStatusAnswer,
  PlanChangeQuoteAnswer,
  PlanChangeStartedAnswer,
} from '../../../answers/checkout.js';
import { PlanChangeBody, PlanChangeQuoteBody } from '../../../../../shared/plan-changes.js';
import { z } from 'zod';

const AccountParams = z.object({ id: z.string().min(1).max(64) });

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
  // Switching an account to another plan (start-plan-change.ts): quoted (not counted), started, or a waiting downgrade called off.
  typed(app).post(
    '/api/accounts/:id/change-plan/quote',
    { schema: { params: AccountParams, body: PlanChangeQuoteBody, response: { 200: PlanChangeQuoteAnswer } } },
    async (request) => opts.checkout.quotePlanChange(request.auth!.user, request.params.id, request.body),
  );
  typed(app).post(
    '/api/accounts/:id/change-plan',
    { preValidation: opts.perUser, schema: { params: AccountParams, body: PlanChangeBody, response: { 200: PlanChangeStartedAnswer } } },
    async (request) => opts.checkout.startPlanChange(request.auth!.user, request.params.id, request.body),
  );
  typed(app).delete(
    '/api/accounts/:id/change-plan',
    { preValidation: opts.perUser, schema: { params: AccountParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await opts.checkout.cancelScheduledPlanChange(request.auth!.user, request.params.id);
      return reply.status(204).send(null);
    },
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
