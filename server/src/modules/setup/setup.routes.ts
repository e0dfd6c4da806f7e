import type { FastifyInstance } from 'fastify';
import type { SetupChecklistService } from './setup-checklist.js';
import { requireAccess } from '../../lib/route-schemas.js';
import { SetupChecklistAnswer } from '../../answers/setup.js';

export async function adminSetupRoutes(app: FastifyInstance, opts: { setup: SetupChecklistService }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/setup', { schema: { response: { 200: SetupChecklistAnswer } } }, async () => opts.setup.get());
}
