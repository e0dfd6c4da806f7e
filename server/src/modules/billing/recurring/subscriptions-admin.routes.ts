import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminCancelSubscriptionBody, AdminSubscriptionsQuery } from '../../../../../shared/billing-schemas.js';
import { actorOf } from '../../users/index.js';
import type { SubscriptionControls } from './subscription-controls.js';
import { IdParams, requireAccess, typed } from '../../../lib/route-schemas.js';
import { AdminSubscriptionAnswer } from '../../../answers/billing.js';

/** The admin's view of recurring subscriptions, and cancelling one now or at its period end. */
export async function adminSubscriptionsRoutes(app: FastifyInstance, opts: { controls: SubscriptionControls }) {
  requireAccess(app, 'admin');
  typed(app).get(
    '/api/admin/subscriptions',
    { schema: { querystring: AdminSubscriptionsQuery, response: { 200: z.array(AdminSubscriptionAnswer) } } },
    async (request) => opts.controls.listForAdmin(request.query),
  );
  typed(app).post(
    '/api/admin/subscriptions/:id/cancel',
    { schema: { params: IdParams, body: AdminCancelSubscriptionBody, response: { 200: AdminSubscriptionAnswer } } },
    async (request) => opts.controls.cancelForAdmin(actorOf(request), request.params.id, request.body.when),
  );
}
