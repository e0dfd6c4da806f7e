import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AdminCancelSubscriptionBody } from '../../../../../shared/billing-schemas.js';
import { parseInput } from '../../../lib/parse.js';
import { actorOf } from '../../users/users.service.js';
import type { ProviderAccountsService } from './provider-accounts.service.js';

/** The provider accounts that took payments, and ending the subscriptions of one switched away from. */
export async function adminProviderAccountsRoutes(app: FastifyInstance, opts: { accounts: ProviderAccountsService }) {
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/payments/accounts', async () => opts.accounts.list());
  app.post('/api/admin/payments/accounts/:id/end-subscriptions', async (request: FastifyRequest<{ Params: { id: string } }>) =>
    opts.accounts.endSubscriptions(actorOf(request), request.params.id, parseInput(AdminCancelSubscriptionBody, request.body ?? {}).when));
}
