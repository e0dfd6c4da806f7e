import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateServerBody, ServerConnectionBody, UpdateServerBody } from '../../../../shared/servers.js';
import { actorOf } from '../users/users.service.js';
import type { ServersService } from './servers.service.js';
import { IdParams, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** Master servers (panels): admin only. Answers never carry the password or a panel token. */
export async function adminServersRoutes(app: FastifyInstance, opts: { servers: ServersService }) {
  const { servers } = opts;
  requireAccess(app, 'admin');

  app.get('/api/admin/servers', async () => servers.listServers());

  typed(app).post('/api/admin/servers/test', { schema: { body: ServerConnectionBody } }, async (request) => servers.testConnection(request.body));

  typed(app).post('/api/admin/servers', { schema: { body: CreateServerBody } }, async (request, reply) => {
    const created = await servers.createServer(actorOf(request), request.body);
    return reply.status(201).send(created);
  });

  typed(app).patch('/api/admin/servers/:id', { schema: { params: IdParams, body: UpdateServerBody } }, async (request) =>
    servers.updateServer(actorOf(request), request.params.id, request.body));

  app.delete('/api/admin/servers/:id', async (request: WithId, reply) => {
    await servers.deleteServer(actorOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.post('/api/admin/servers/:id/enable', async (request: WithId) => servers.enableServer(actorOf(request), request.params.id));
  app.post('/api/admin/servers/:id/disable', async (request: WithId) => servers.disableServer(actorOf(request), request.params.id));
  app.get('/api/admin/servers/:id/services', async (request: WithId) => servers.listPanelServices(request.params.id));
}
