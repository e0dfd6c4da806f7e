import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import type { Db } from '../../db/knex.js';
import type { DomainEvents } from '../../domain-events.js';
import { createMetrics } from './metrics.js';
import { countPayments } from './payment-counts.js';
import type { ScrapeReadings } from './scrape-readings.js';
import { countWebhookResults } from './webhook-counts.js';

const quiet = { warn: () => undefined } as unknown as FastifyBaseLogger;
const readings: ScrapeReadings = {
  jobQueue: async () => ({ due: 0, running: 0, failed: 0 }),
  oldestDueJobAgeSeconds: async () => 0,
  activeAccounts: async () => 0,
  startScrape: () => undefined,
  panels: async () => [],
};
const line = (text: string, series: string) => text.split('\n').find((candidate) => candidate.startsWith(`${series} `));

describe('what the metrics count as it happens', () => {
  it('counts webhooks by provider and outcome: applied, duplicate, refused (4xx) and failed (anything else)', async () => {
    const metrics = createMetrics({ readings, log: quiet, processMetrics: false });
    const answers: Array<() => Promise<{ received: true; duplicate?: true }>> = [
      async () => ({ received: true }),
      async () => ({ received: true, duplicate: true }),
      async () => Promise.reject(new AppError(400, 'invalid_signature', 'bad signature')),
      async () => Promise.reject(new Error('database gone')),
    ];
    const handle = countWebhookResults(metrics, async (_method: string, i: number) => answers[i]!());
    for (let i = 0; i < answers.length; i += 1) await handle('card', i).catch(() => undefined);
    await handle('yookassa', 0);
    const text = await metrics.scrape();
    for (const outcome of ['applied', 'duplicate', 'refused', 'failed']) {
      expect(line(text, `storefront_webhooks_total{provider="stripe",outcome="${outcome}"}`), outcome).toBe(
        `storefront_webhooks_total{provider="stripe",outcome="${outcome}"} 1`,
      );
    }
    expect(line(text, 'storefront_webhooks_total{provider="yookassa",outcome="applied"}')).toMatch(/ 1$/);
  });

  it('counts payments and full refunds by provider once their transaction commits, and none that rolls back', async () => {
    const metrics = createMetrics({ readings, log: quiet, processMetrics: false });
    const count = countPayments(metrics, {} as Db);
    const told = (event: string, provider: string, committed: Promise<unknown>) =>
      count({
        transaction: { providerName: provider, subscriptionId: 's1' },
        event,
        now: new Date(),
        trx: { executionPromise: committed } as unknown as Db,
      } as unknown as DomainEvents['transaction.transitioned']);
    told('paid', 'stripe', Promise.resolve());
    told('paid_after_review', 'btcpay', Promise.resolve());
    told('refunded', 'stripe', Promise.resolve());
    told('paid', 'stripe', Promise.reject(new Error('rolled back')));
    told('failed', 'stripe', Promise.resolve());
    await new Promise((resolve) => setImmediate(resolve));
    const text = await metrics.scrape();
    expect(line(text, 'storefront_payments_total{provider="stripe"}')).toMatch(/ 1$/);
    expect(line(text, 'storefront_payments_total{provider="btcpay"}')).toMatch(/ 1$/);
    expect(line(text, 'storefront_refunds_total{provider="stripe"}')).toMatch(/ 1$/);
  });
});
