import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CHECKOUT_LIMIT, type LimitRule } from '../../plugins/rate-limit.js';
import type { BillingService } from './billing.service.js';
import { addCheckoutRoutes } from './checkout/checkout.routes.js';
import type { CheckoutService } from './checkout/checkout.service.js';
import { addSubscriptionControlRoutes } from './recurring/subscription-controls.routes.js';
import type { SubscriptionControls } from './recurring/subscription-controls.js';
import type { SavedMethodsService } from './recurring/saved-methods.service.js';
import { actorOf } from '../users/index.js';
import { requireAccess } from '../../lib/route-schemas.js';
import { SavedMethodRemovedAnswer, SavedPaymentMethodAnswer, SubscriptionAnswer, TransactionAnswer } from '../../answers/billing.js';

/**
 * The customer's billing: card checkout and the caller's own subscriptions and transactions (someone
 * else's are a 404), and the cards it keeps to renew plans with. Checkout and the changes share one per-user limit.
 */
export async function billingRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService; billing: BillingService; controls: SubscriptionControls; savedMethods: SavedMethodsService; checkoutLimit: LimitRule },
) {
  requireAccess(app, 'user');
  const perUser = app.limiter(CHECKOUT_LIMIT, opts.checkoutLimit, (request) => request.auth!.user.id);

  addCheckoutRoutes(app, { checkout: opts.checkout, perUser });
  addSubscriptionControlRoutes(app, { controls: opts.controls, perUser });
  app.get('/api/subscriptions', { schema: { response: { 200: z.array(SubscriptionAnswer) } } }, async (request) =>
    opts.billing.listSubscriptions(request.auth!.user),
  );
  app.get('/api/transactions', { schema: { response: { 200: z.array(TransactionAnswer) } } }, async (request) =>
    opts.billing.listTransactions(request.auth!.user),
  );
  // The cards plans renewed here are charged with; removing one turns auto-renew off on those plans.
  app.get('/api/payment-methods', { schema: { response: { 200: z.array(SavedPaymentMethodAnswer) } } }, async (request) =>
    opts.savedMethods.list(request.auth!.user),
  );
  app.delete(
    '/api/payment-methods/:id',
    { preValidation: perUser, schema: { response: { 200: SavedMethodRemovedAnswer } } },
    async (request: FastifyRequest<{ Params: { id: string } }>) => opts.savedMethods.remove(actorOf(request), request.auth!.user, request.params.id),
  );
}
