import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminCancelSubscriptionBody } from '../../../../../shared/billing-schemas.js';
import { actorOf } from '../../users/index.js';
import type { ProviderAccountsService } from './provider-accounts.service.js';
import { IdParams, requireAccess, typed } from '../../../lib/route-schemas.js';
import { EndAccountSubscriptionsAnswer, ProviderAccountAnswer } from '../../../answers/provider-accounts.js';

/** The provider accounts that took payments, and ending the subscriptions of one switched away from. */
export async function adminProviderAccountsRoutes(app: FastifyInstance, opts: { accounts: ProviderAccountsService }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/payments/accounts', { schema: { response: { 200: z.array(ProviderAccountAnswer) } } }, async () => opts.accounts.list());
  typed(app).post(
    '/api/admin/payments/accounts/:id/end-subscriptions',
    { schema: { params: IdParams, body: AdminCancelSubscriptionBody, response: { 200: EndAccountSubscriptionsAnswer } } },
    async (request) => opts.accounts.endSubscriptions(actorOf(request), request.params.id, request.body.when),
  );
}
