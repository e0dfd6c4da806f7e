import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ExtendAccountBody } from '../../../../shared/users.js';
import { parseInput } from '../../lib/parse.js';
import { actorOf } from '../users/users.service.js';
import type { AdminAccountActions } from './admin-account-actions.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** The user page's account actions (admins only). */
export async function adminAccountActionsRoutes(app: FastifyInstance, opts: { actions: AdminAccountActions }) {
  app.addHook('preHandler', app.requireAdmin);
  const { actions } = opts;

  app.post('/api/admin/accounts/:id/extend', async (request: WithId) => actions.extend(actorOf(request), request.params.id, parseInput(ExtendAccountBody, request.body)));
  app.post('/api/admin/accounts/:id/reset-usage', async (request: WithId) => actions.resetUsage(actorOf(request), request.params.id));
  app.post('/api/admin/accounts/:id/disable', async (request: WithId) => actions.setEnabled(actorOf(request), request.params.id, false));
  app.post('/api/admin/accounts/:id/enable', async (request: WithId) => actions.setEnabled(actorOf(request), request.params.id, true));
  app.delete('/api/admin/accounts/:id', async (request: WithId, reply) => {
    await actions.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
