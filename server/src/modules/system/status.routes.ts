import type { FastifyInstance } from 'fastify';
import type { StatusService } from './status.service.js';

export async function statusRoutes(app: FastifyInstance, opts: { status: StatusService }) {
  app.get('/api/status', async () => opts.status.getStatus());
}
