import type { FastifyInstance } from 'fastify';
import { ImportPanelUsersBody, PanelUsersQuery } from '../../../../shared/panel-import.js';
import { actorOf } from '../users/index.js';
import type { PanelImportService } from './panel-import.service.js';
import { ImportResultAnswer, PanelUsersPageAnswer } from '../../answers/panel-import.js';
import { IdParams, requireAccess, typed } from '../../lib/route-schemas.js';

/** Moving a panel's existing users in: admin only. */
export async function adminPanelImportRoutes(app: FastifyInstance, opts: { panelImport: PanelImportService }) {
  const { panelImport } = opts;
  requireAccess(app, 'admin');

  typed(app).get(
    '/api/admin/servers/:id/panel-users',
    { schema: { params: IdParams, querystring: PanelUsersQuery, response: { 200: PanelUsersPageAnswer } } },
    async (request) => panelImport.listPanelUsers(request.params.id, request.query),
  );

  typed(app).post(
    '/api/admin/servers/:id/import',
    { bodyLimit: 512 * 1024, schema: { params: IdParams, body: ImportPanelUsersBody, response: { 201: ImportResultAnswer } } },
    async (request, reply) => {
      const result = await panelImport.importUsers(actorOf(request), request.params.id, request.body);
      return reply.status(201).send(result);
    },
  );
}
