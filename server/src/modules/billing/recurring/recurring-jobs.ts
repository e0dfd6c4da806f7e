import type { JobHandler } from '../../../jobs/worker.js';
import { createDeferRenewalHandler, DEFER_RENEWAL } from './defer-renewal.js';
import { createReconcileSubscriptionsHandler, RECONCILE_SUBSCRIPTIONS } from './reconcile-subscriptions.js';
import { createSendRenewalRemindersHandler, SEND_RENEWAL_REMINDERS } from './send-renewal-reminders.js';
import { createSyncCustomerLanguageHandler, SYNC_CUSTOMER_LANGUAGE } from './sync-customer-language.js';
import { createSyncPlanPriceHandler, SYNC_PLAN_PRICE } from './sync-plan-price.js';

/** The recurring module's jobs, by type, for the worker. */
export function recurringJobHandlers(deps: {
  reconcile: Parameters<typeof createReconcileSubscriptionsHandler>[0];
  reminders: Parameters<typeof createSendRenewalRemindersHandler>[0];
  planPrices: Parameters<typeof createSyncPlanPriceHandler>[0];
  customerLanguage: Parameters<typeof createSyncCustomerLanguageHandler>[0];
  deferRenewal: Parameters<typeof createDeferRenewalHandler>[0];
}): Record<string, JobHandler> {
  return {
    [RECONCILE_SUBSCRIPTIONS]: createReconcileSubscriptionsHandler(deps.reconcile),
    [SEND_RENEWAL_REMINDERS]: createSendRenewalRemindersHandler(deps.reminders),
    [SYNC_PLAN_PRICE]: createSyncPlanPriceHandler(deps.planPrices),
    [SYNC_CUSTOMER_LANGUAGE]: createSyncCustomerLanguageHandler(deps.customerLanguage),
    [DEFER_RENEWAL]: createDeferRenewalHandler(deps.deferRenewal),
  };
}
