import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from './metrics.js';

/**
 * METRICS_ADDRESS: a listener of its own that answers only `GET /metrics`, without a token — for a Prometheus on
 * the same host or private network, the address itself being the protection. Started when the app listens.
 */
export function createMetricsListener(deps: { metrics: Metrics; address: { host: string; port: number }; log: FastifyBaseLogger }) {
  const { metrics, address, log } = deps;
  let server: Server | undefined;

  return {
    async start(): Promise<void> {
      if (server) return;
      const started = createServer((request, response) => {
        const path = (request.url ?? '/').split('?')[0];
        if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
          response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify({ code: 'not_found', message: 'Only GET /metrics is served here.' }));
          return;
        }
        metrics.scrape().then(
          (text) => {
            response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
            response.end(request.method === 'HEAD' ? undefined : text);
          },
          (err: unknown) => {
            log.error({ err }, 'metrics scrape failed');
            response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
            response.end(JSON.stringify({ code: 'internal_error', message: 'The metrics could not be read.' }));
          },
        );
      });
      server = started;
      await new Promise<void>((resolve, reject) => {
        started.once('error', reject);
        started.listen(address.port, address.host, () => resolve());
      });
      log.info({ address: started.address() }, 'metrics served without a token at this address');
    },
    /** Where it listens (its port when METRICS_ADDRESS asked for port 0); undefined before it starts. */
    address(): AddressInfo | undefined {
      const bound = server?.address();
      return bound && typeof bound === 'object' ? bound : undefined;
    },
    async close(): Promise<void> {
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}

export type MetricsListener = ReturnType<typeof createMetricsListener>;
