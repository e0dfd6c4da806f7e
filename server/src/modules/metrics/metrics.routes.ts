import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { notFound, unauthenticated } from '../../errors.js';
import type { MetricsListener } from './metrics-listener.js';
import type { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

/** A built file (`/assets/index-3f2a.js`, `/favicon.svg`): one label for all, or every hashed file would be a series of its own. */
const FILE_ROUTE = /^\/(?!api\/)[^:*]*\.[a-z0-9]+$/i;

/** The label of a request: its route's pattern (`/sub/*`, `/api/accounts/:id`), never the URL; `unmatched` for a 404 of no route. */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return 'unmatched';
  return FILE_ROUTE.test(pattern) ? 'static file' : pattern;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when the request carries `Authorization: Bearer <token>` (compared in constant time). */
function hasToken(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!.trim()), digest(token));
}

/**
 * Every request timed by its route's pattern (a hook on the whole app: this plugin is not encapsulated), and
 * `GET /metrics` for a scraper with METRICS_TOKEN (without the token set, 404: the site's port serves no
 * metrics). METRICS_ADDRESS adds a listener of its own, without a token, started as the app listens.
 */
export const metricsRoutes = fp(
  async (app: FastifyInstance, opts: { metrics: Metrics; token: string | undefined; listener: MetricsListener | undefined }) => {
    const { metrics, token, listener } = opts;
    app.addHook('onResponse', async (request, reply) => {
      if (request.routeOptions.url === METRICS_PATH) return;
      metrics.request(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1000);
    });
    if (listener) {
      app.addHook('onListen', async () => listener.start());
      app.addHook('onClose', async () => listener.close());
    }

    app.get(METRICS_PATH, { schema: { response: { 200: z.string().describe('Prometheus text format') } } }, async (request, reply) => {
      if (token === undefined) throw notFound(`No route for GET ${METRICS_PATH}.`);
      if (!hasToken(request, token)) throw unauthenticated('Metrics need the metrics token: Authorization: Bearer <METRICS_TOKEN>.');
      const text = await metrics.scrape();
      return reply.header('Cache-Control', 'no-store').type(metrics.contentType).send(text);
    });
  },
  { name: 'metrics' },
);
