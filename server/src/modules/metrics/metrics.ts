import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import type { ScrapeReadings } from './scrape-readings.js';

/** Every metric name starts with this. */
export const METRIC_PREFIX = 'storefront_';

/** Request latencies, in seconds: fast API answers to slow panel calls. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How a payment provider's webhook ended: applied, seen before, refused (bad signature, unreadable) or failed (our error). */
export type WebhookOutcome = 'applied' | 'duplicate' | 'refused' | 'failed';

/** Why a sign-in code was refused (the sign-in's own reasons), or `throttled`: asked again within the cool-down. */
export type CodeRefusal = 'wrong' | 'locked' | 'expired' | 'throttled';

/**
 * Every metric the server exports, registered here and nowhere else, in a registry of this app's own (tests build
 * many apps in one process). Counters are counted as things happen, in this instance; gauges about the whole store
 * (job queue, panels, accounts) are read from the database when Prometheus scrapes, so every instance reports
 * the same figures (see docs/monitoring.md).
 */
export function createMetrics(deps: { readings: ScrapeReadings; log: FastifyBaseLogger; processMetrics: boolean }) {
  const registry = new Registry();
  const { readings, log } = deps;
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`;
  if (deps.processMetrics) collectDefaultMetrics({ register: registry, prefix: name('') });

  const requests = new Histogram({
    name: name('http_request_duration_seconds'),
    help: 'HTTP requests by route pattern (never the URL), method and status: rates from _count, latencies from the buckets',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: name('webhooks_total'),
    help: "Payment providers' webhooks received, by provider and outcome (applied, duplicate, refused, failed)",
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const payments = new Counter({
    name: name('payments_total'),
    help: 'Payments that succeeded, by payment provider',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const refunds = new Counter({
    name: name('refunds_total'),
    help: 'Payments refunded in full, by payment provider',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const codesSent = new Counter({ name: name('sign_in_codes_sent_total'), help: 'Sign-in codes sent', registers: [registry] });
  const codesRefused = new Counter({
    name: name('sign_in_codes_refused_total'),
    help: 'Sign-in codes refused, by reason: wrong, locked (too many tries), expired, or throttled (asked again too soon)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });

  registerStoreGauges(registry, readings, log);

  return {
    registry,
    /** Prometheus's text format of every metric (the gauges read now). */
    scrape: () => {
      readings.startScrape();
      return registry.metrics();
    },
    contentType: registry.contentType,
    request(method: string, route: string, status: number, seconds: number): void {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
    webhook(provider: string, outcome: WebhookOutcome): void {
      webhooks.inc({ provider, outcome });
    },
    payment(provider: string): void {
      payments.inc({ provider });
    },
    refund(provider: string): void {
      refunds.inc({ provider });
    },
    codeSent(): void {
      codesSent.inc();
    },
    codeRefused(reason: CodeRefusal): void {
      codesRefused.inc({ reason });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The gauges about the whole store, read from the database when Prometheus scrapes (scrape-readings.ts). */
function registerStoreGauges(registry: Registry, readings: ScrapeReadings, log: FastifyBaseLogger): void {
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`;
  /** A scrape still answers when one reading fails (the database is down): that gauge is left out, and the failure logged. */
  const reading = async (what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (err) {
      log.warn({ err, metric: what }, 'a metric could not be read');
    }
  };

  new Gauge({
    name: name('jobs_queued'),
    help: 'Background jobs waiting: due (should be running now) or scheduled for later',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      await reading('jobs_queued', async () => {
        const queue = await readings.jobQueue();
        this.reset();
        this.set({ state: 'due' }, queue.due);
        this.set({ state: 'running' }, queue.running);
        this.set({ state: 'failed' }, queue.failed);
      });
    },
  });
  new Gauge({
    name: name('jobs_oldest_due_age_seconds'),
    help: 'How long the oldest due job has been waiting to run (0: none is waiting)',
    registers: [registry],
    async collect() {
      await reading('jobs_oldest_due_age_seconds', async () => this.set(await readings.oldestDueJobAgeSeconds()));
    },
  });
  new Gauge({
    name: name('panel_up'),
    help: 'Each enabled panel server by its last health checks: 1 up, 0 down (unknown until first checked: not listed)',
    labelNames: ['server_id', 'server'] as const,
    registers: [registry],
    async collect() {
      await reading('panel_up', async () => {
        const panels = await readings.panels();
        this.reset();
        for (const panel of panels) if (panel.up !== null) this.set({ server_id: panel.id, server: panel.name }, panel.up ? 1 : 0);
      });
    },
  });
  new Gauge({
    name: name('panel_latency_seconds'),
    help: "How long each enabled panel server's last successful health check took",
    labelNames: ['server_id', 'server'] as const,
    registers: [registry],
    async collect() {
      await reading('panel_latency_seconds', async () => {
        const panels = await readings.panels();
        this.reset();
        for (const panel of panels) if (panel.latencyMs !== null) this.set({ server_id: panel.id, server: panel.name }, panel.latencyMs / 1000);
      });
    },
  });
  new Gauge({
    name: name('active_accounts'),
    help: 'VPN accounts whose status is active (a counter the database keeps: one row read)',
    registers: [registry],
    async collect() {
      await reading('active_accounts', async () => this.set(await readings.activeAccounts()));
    },
  });
}
