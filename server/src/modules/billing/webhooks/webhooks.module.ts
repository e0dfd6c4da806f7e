import { countWebhookResults } from '../../metrics/index.js';
import { defineModule, route, type Provided } from '../../module.js';
import type { WithSubscriptions } from '../recurring/subscriptions.module.js';
import { paymentWebhookRoutes } from './payment-webhooks.routes.js';
import { createPaymentWebhooksService } from './payment-webhooks.service.js';
import { createUnreadableWebhooksRepo } from './unreadable-webhooks.repo.js';

/** The payment providers' webhooks: each event read back or checked, applied once; the unreadable kept for the admin. */
export const webhooksModule = defineModule({
  name: 'billing-webhooks',
  build({ db, clock, log, metrics, billingRepo: billing, payments, confirmation, reversals, recurring }: WithSubscriptions) {
    const unreadableWebhooks = createUnreadableWebhooksRepo(db);
    const service = createPaymentWebhooksService({ db, billing, payments, confirmation, reversals, recurring, unreadable: unreadableWebhooks, clock, log });
    return {
      unreadableWebhooks,
      // Each event's outcome is counted by provider (GET /metrics).
      paymentWebhooks: { ...service, handleWebhook: countWebhookResults(metrics, service.handleWebhook) },
    };
  },
  routes: ({ paymentWebhooks }) => [route(paymentWebhookRoutes, { webhooks: paymentWebhooks })],
});

/** What the modules after billing may use. */
export type WithBilling = WithSubscriptions & Provided<typeof webhooksModule>;
