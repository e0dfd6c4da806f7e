import type { FastifyInstance } from 'fastify';
import type { createSystemService } from './system.service.js';
import { requireAccess } from '../../lib/route-schemas.js';
import { SystemStatusAnswer } from '../../answers/system.js';

export async function adminSystemRoutes(app: FastifyInstance, opts: { system: ReturnType<typeof createSystemService> }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/system', { schema: { response: { 200: SystemStatusAnswer } } }, async () => opts.system.getSystemStatus());
}
