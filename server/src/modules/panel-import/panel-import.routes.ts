import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ImportPanelUsersBody, PanelUsersQuery } from '../../../../shared/panel-import.js';
import { parseInput } from '../../lib/parse.js';
import { actorOf } from '../users/users.service.js';
import type { PanelImportService } from './panel-import.service.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** Moving a panel's existing users in: admin only. */
export async function adminPanelImportRoutes(app: FastifyInstance, opts: { panelImport: PanelImportService }) {
  const { panelImport } = opts;
  app.addHook('preHandler', app.requireAdmin);

  app.get('/api/admin/servers/:id/panel-users', async (request: WithId) =>
    panelImport.listPanelUsers(request.params.id, parseInput(PanelUsersQuery, request.query)));

  app.post('/api/admin/servers/:id/import', { bodyLimit: 512 * 1024 }, async (request: WithId, reply) => {
    const result = await panelImport.importUsers(actorOf(request), request.params.id, parseInput(ImportPanelUsersBody, request.body));
    return reply.status(201).send(result);
  });
}
