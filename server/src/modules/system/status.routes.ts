import type { FastifyInstance } from 'fastify';
import type { StatusService } from './status.service.js';
import { StatusAnswer } from '../../answers/status.js';

export async function statusRoutes(app: FastifyInstance, opts: { status: StatusService }) {
  app.get('/api/status', { schema: { response: { 200: StatusAnswer } } }, async () => opts.status.getStatus());
}
