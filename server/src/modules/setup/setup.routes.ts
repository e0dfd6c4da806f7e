import type { FastifyInstance } from 'fastify';
import type { SetupChecklistService } from './setup-checklist.js';

export async function adminSetupRoutes(app: FastifyInstance, opts: { setup: SetupChecklistService }) {
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/setup', async () => opts.setup.get());
}
