import type { FastifyInstance } from 'fastify';
import { OverviewQuery } from '../../../../shared/overview.js';
import { sendKeptJson } from '../../lib/kept-json.js';
import type { OverviewService } from './overview.service.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';
import { AdminOverviewAnswer } from '../../answers/overview.js';

export async function adminOverviewRoutes(app: FastifyInstance, opts: { overview: OverviewService }) {
  requireAccess(app, 'admin');

  typed(app).get('/api/admin/overview', { schema: { querystring: OverviewQuery, response: { 200: AdminOverviewAnswer } } }, async (request, reply) =>
    sendKeptJson(request, reply, await opts.overview.getOverviewJson(request.query.days)),
  );
}
