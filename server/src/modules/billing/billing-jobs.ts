import type { JobHandler } from '../../jobs/worker.js';
import { SEND_BILLING_EMAIL } from './billing-notices.js';
import { createSendBillingEmailHandler } from './send-billing-email.js';

/** The billing e-mails' job, by type, for the worker. */
export function billingJobHandlers(deps: Parameters<typeof createSendBillingEmailHandler>[0]): Record<string, JobHandler> {
  return {
    [SEND_BILLING_EMAIL]: createSendBillingEmailHandler(deps),
  };
}
