import type { FastifyInstance } from 'fastify';
import { OverviewQuery } from '../../../../shared/overview.js';
import { sendKeptJson } from '../../lib/kept-json.js';
import { parseInput } from '../../lib/parse.js';
import type { OverviewService } from './overview.service.js';

export async function adminOverviewRoutes(app: FastifyInstance, opts: { overview: OverviewService }) {
  app.addHook('preHandler', app.requireAdmin);

  app.get('/api/admin/overview', async (request, reply) =>
    sendKeptJson(request, reply, await opts.overview.getOverviewJson(parseInput(OverviewQuery, request.query).days)));
}
