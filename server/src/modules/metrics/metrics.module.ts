import type { Records } from '../../records.module.js';
import { defineModule, route } from '../module.js';
import { createMetricsListener } from './metrics-listener.js';
import { metricsRoutes } from './metrics.routes.js';
import { createMetrics } from './metrics.js';
import { countPayments } from './payment-counts.js';
import { createScrapeReadings } from './scrape-readings.js';

/**
 * Metrics for Prometheus: requests by route, the job queue, webhooks, payments and refunds, panel health, sign-in
 * codes and active accounts, in one registry per app (metrics.ts). Built early, so the modules after it count
 * what they do through `metrics`; served at GET /metrics with METRICS_TOKEN and on METRICS_ADDRESS (docs/monitoring.md).
 */
export const metricsModule = defineModule({
  name: 'metrics',
  build({ config, db, clock, log, serversRepo }: Records) {
    const readings = createScrapeReadings({ db, servers: serversRepo, clock });
    const metrics = createMetrics({ readings, log, processMetrics: config.env !== 'test' });
    const metricsListener = config.metricsAddress ? createMetricsListener({ metrics, address: config.metricsAddress, log }) : undefined;
    return { metrics, metricsListener };
  },
  routes: ({ metrics, metricsListener, config }) => [route(metricsRoutes, { metrics, token: config.metricsToken, listener: metricsListener })],
  listeners: ({ metrics, db }) => ({ 'transaction.transitioned': countPayments(metrics, db) }),
});
