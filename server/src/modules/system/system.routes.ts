import type { FastifyInstance } from 'fastify';
import type { createSystemService } from './system.service.js';
import { requireAccess } from '../../lib/route-schemas.js';

export async function adminSystemRoutes(app: FastifyInstance, opts: { system: ReturnType<typeof createSystemService> }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/system', async () => opts.system.getSystemStatus());
}
