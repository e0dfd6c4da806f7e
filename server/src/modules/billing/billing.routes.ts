import type { FastifyInstance } from 'fastify';
import type { LimitRule } from '../../plugins/rate-limit.js';
import { addGiftRedeemRoute } from '../gift-codes/gift-codes.routes.js';
import type { GiftCodesService } from '../gift-codes/gift-codes.service.js';
import type { BillingService } from './billing.service.js';
import { addCheckoutRoutes } from './checkout/checkout.routes.js';
import type { CheckoutService } from './checkout/checkout.service.js';
import { addSubscriptionControlRoutes } from './recurring/subscription-controls.routes.js';
import type { SubscriptionControls } from './recurring/subscription-controls.js';

/**
 * The customer's billing: card checkout and the caller's own subscriptions and transactions (someone
 * else's are a 404). Checkout and the subscription controls share one per-user limit.
 */
export async function billingRoutes(app: FastifyInstance, opts: { checkout: CheckoutService; billing: BillingService; controls: SubscriptionControls; gifts: GiftCodesService; checkoutLimit: LimitRule }) {
  app.addHook('preHandler', app.requireUser);
  const perUser = app.limiter('checkout-user', opts.checkoutLimit, (request) => request.auth!.user.id);

  addCheckoutRoutes(app, { checkout: opts.checkout, perUser });
  addSubscriptionControlRoutes(app, { controls: opts.controls, perUser });
  addGiftRedeemRoute(app, { gifts: opts.gifts, perUser });
  app.get('/api/subscriptions', async (request) => opts.billing.listSubscriptions(request.auth!.user));
  app.get('/api/transactions', async (request) => opts.billing.listTransactions(request.auth!.user));
}
