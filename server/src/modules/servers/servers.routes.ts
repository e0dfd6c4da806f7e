import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateServerBody, ServerConnectionBody, UpdateServerBody } from '../../../../shared/servers.js';
import { actorOf } from '../users/index.js';
import type { ServersService } from './servers.service.js';
import { AdminServerAnswer, AdminServerListAnswer, ConnectionTestedAnswer, PanelServiceListAnswer } from '../../answers/servers.js';
import { IdParams, NoContent, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** Master servers (panels): admin only. Answers never carry the password or a panel token. */
export async function adminServersRoutes(app: FastifyInstance, opts: { servers: ServersService }) {
  const { servers } = opts;
  requireAccess(app, 'admin');
  const response = { 200: AdminServerAnswer };

  app.get('/api/admin/servers', { schema: { response: { 200: AdminServerListAnswer } } }, async () => servers.listServers());

  typed(app).post('/api/admin/servers/test', { schema: { body: ServerConnectionBody, response: { 200: ConnectionTestedAnswer } } }, async (request) =>
    servers.testConnection(request.body),
  );

  typed(app).post('/api/admin/servers', { schema: { body: CreateServerBody, response: { 201: AdminServerAnswer } } }, async (request, reply) => {
    const created = await servers.createServer(actorOf(request), request.body);
    return reply.status(201).send(created);
  });

  typed(app).patch('/api/admin/servers/:id', { schema: { params: IdParams, body: UpdateServerBody, response } }, async (request) =>
    servers.updateServer(actorOf(request), request.params.id, request.body),
  );

  app.delete('/api/admin/servers/:id', { schema: { response: { 204: NoContent } } }, async (request: WithId, reply) => {
    await servers.deleteServer(actorOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.post('/api/admin/servers/:id/enable', { schema: { response } }, async (request: WithId) => servers.enableServer(actorOf(request), request.params.id));
  app.post('/api/admin/servers/:id/disable', { schema: { response } }, async (request: WithId) => servers.disableServer(actorOf(request), request.params.id));
  app.get('/api/admin/servers/:id/services', { schema: { response: { 200: PanelServiceListAnswer } } }, async (request: WithId) =>
    servers.listPanelServices(request.params.id),
  );
}
