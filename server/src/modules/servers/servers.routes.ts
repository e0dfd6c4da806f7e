import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateServerBody, ServerConnectionBody, UpdateServerBody } from '../../../../shared/servers.js';
import { parseInput } from '../../lib/parse.js';
import { actorOf } from '../users/users.service.js';
import type { ServersService } from './servers.service.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** Master servers (panels): admin only. Answers never carry the password or a panel token. */
export async function adminServersRoutes(app: FastifyInstance, opts: { servers: ServersService }) {
  const { servers } = opts;
  app.addHook('preHandler', app.requireAdmin);

  app.get('/api/admin/servers', async () => servers.listServers());

  app.post('/api/admin/servers/test', async (request) => servers.testConnection(parseInput(ServerConnectionBody, request.body)));

  app.post('/api/admin/servers', async (request, reply) => {
    const created = await servers.createServer(actorOf(request), parseInput(CreateServerBody, request.body));
    return reply.status(201).send(created);
  });

  app.patch('/api/admin/servers/:id', async (request: WithId) =>
    servers.updateServer(actorOf(request), request.params.id, parseInput(UpdateServerBody, request.body)));

  app.delete('/api/admin/servers/:id', async (request: WithId, reply) => {
    await servers.deleteServer(actorOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.post('/api/admin/servers/:id/enable', async (request: WithId) => servers.enableServer(actorOf(request), request.params.id));
  app.post('/api/admin/servers/:id/disable', async (request: WithId) => servers.disableServer(actorOf(request), request.params.id));
  app.get('/api/admin/servers/:id/services', async (request: WithId) => servers.listPanelServices(request.params.id));
}
