import type { FastifyInstance } from 'fastify';
import type { createSystemService } from './system.service.js';

export async function adminSystemRoutes(app: FastifyInstance, opts: { system: ReturnType<typeof createSystemService> }) {
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/system', async () => opts.system.getSystemStatus());
}
