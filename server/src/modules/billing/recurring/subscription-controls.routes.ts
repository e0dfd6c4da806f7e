import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SubscriptionControls } from './subscription-controls.js';
import { BillingPortalAnswer, SubscriptionAnswer } from '../../../answers/billing.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/**
 * The caller's controls over their own recurring subscriptions (someone else's are a 404). Added to the
 * customer's billing routes (billing.routes.ts), which require a user and hold the per-user limit.
 */
export function addSubscriptionControlRoutes(
  app: FastifyInstance,
  opts: { controls: SubscriptionControls; perUser: (request: FastifyRequest) => Promise<void> },
) {
  app.post('/api/subscriptions/:id/cancel', { preValidation: opts.perUser, schema: { response: { 200: SubscriptionAnswer } } }, async (request: WithId) =>
    opts.controls.cancel(request.auth!.user, request.params.id),
  );
  app.post('/api/subscriptions/:id/resume', { preValidation: opts.perUser, schema: { response: { 200: SubscriptionAnswer } } }, async (request: WithId) =>
    opts.controls.resume(request.auth!.user, request.params.id),
  );
  app.post('/api/billing/portal', { preValidation: opts.perUser, schema: { response: { 200: BillingPortalAnswer } } }, async (request) =>
    opts.controls.openPortal(request.auth!.user),
  );
}
