import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ExtendAccountBody } from '../../../../shared/users.js';
import { actorOf } from '../users/index.js';
import type { AdminAccountActions } from './admin-account-actions.js';
import { VpnAccountAnswer } from '../../answers/accounts.js';
import { IdParams, NoContent, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** The user page's account actions (admins only). */
export async function adminAccountActionsRoutes(app: FastifyInstance, opts: { actions: AdminAccountActions }) {
  requireAccess(app, 'admin');
  const { actions } = opts;
  const response = { 200: VpnAccountAnswer };

  typed(app).post('/api/admin/accounts/:id/extend', { schema: { params: IdParams, body: ExtendAccountBody, response } }, async (request) =>
    actions.extend(actorOf(request), request.params.id, request.body),
  );
  app.post('/api/admin/accounts/:id/reset-usage', { schema: { response } }, async (request: WithId) => actions.resetUsage(actorOf(request), request.params.id));
  app.post('/api/admin/accounts/:id/disable', { schema: { response } }, async (request: WithId) =>
    actions.setEnabled(actorOf(request), request.params.id, false),
  );
  app.post('/api/admin/accounts/:id/enable', { schema: { response } }, async (request: WithId) =>
    actions.setEnabled(actorOf(request), request.params.id, true),
  );
  app.delete('/api/admin/accounts/:id', { schema: { response: { 204: NoContent } } }, async (request: WithId, reply) => {
    await actions.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
