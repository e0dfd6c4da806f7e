import type { FastifyInstance } from 'fastify';
import { HealthResponseSchema, type HealthResponse } from '../../../../shared/config.js';
import type { Db } from '../../db/knex.js';
import { APP_VERSION } from '../../lib/package-info.js';

const DB_TIMEOUT_MS = 2000;

/** True when the database answers a trivial query in time. */
export async function pingDatabase(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DB_TIMEOUT_MS);
  });
  try {
    return await Promise.race([db.raw('select 1').then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.get('/api/health', { schema: { response: { 200: HealthResponseSchema, 503: HealthResponseSchema } } }, async (_request, reply) => {
    const db = await pingDatabase(opts.db);
    const body: HealthResponse = { ok: db, db, version: APP_VERSION };
    return reply.status(db ? 200 : 503).send(body);
  });
}
