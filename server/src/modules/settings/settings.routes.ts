import type { FastifyInstance } from 'fastify';
import type { SettingsService } from './settings.service.js';

export async function publicConfigRoutes(app: FastifyInstance, opts: { settings: SettingsService }) {
  app.get('/api/config', async () => opts.settings.getPublicConfig());
}
