import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AdminCancelSubscriptionBody, AdminSubscriptionsQuery } from '../../../../../shared/billing-schemas.js';
import { parseInput } from '../../../lib/parse.js';
import { actorOf } from '../../users/users.service.js';
import type { SubscriptionControls } from './subscription-controls.js';

/** The admin's view of recurring subscriptions, and cancelling one now or at its period end. */
export async function adminSubscriptionsRoutes(app: FastifyInstance, opts: { controls: SubscriptionControls }) {
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/subscriptions', async (request) => opts.controls.listForAdmin(parseInput(AdminSubscriptionsQuery, request.query)));
  app.post('/api/admin/subscriptions/:id/cancel', async (request: FastifyRequest<{ Params: { id: string } }>) =>
    opts.controls.cancelForAdmin(actorOf(request), request.params.id, parseInput(AdminCancelSubscriptionBody, request.body ?? {}).when));
}
