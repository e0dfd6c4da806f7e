import type { FastifyInstance } from 'fastify';
import type { SetupChecklistService } from './setup-checklist.js';
import { requireAccess } from '../../lib/route-schemas.js';

export async function adminSetupRoutes(app: FastifyInstance, opts: { setup: SetupChecklistService }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/setup', async () => opts.setup.get());
}
