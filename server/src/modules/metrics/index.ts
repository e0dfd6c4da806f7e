/**
 * What the metrics module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type metricsModule } from './metrics.module.js';
export { type CodeRefusal, type Metrics, type WebhookOutcome } from './metrics.js';
export { countWebhookResults } from './webhook-counts.js';
