import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import type { JobHandler } from '../../../jobs/worker.js';
import { createDeferRenewalHandler, DEFER_RENEWAL } from './defer-renewal.js';
import { createReconcileSubscriptionsHandler, RECONCILE_SUBSCRIPTIONS, scheduleSubscriptionReconcile } from './reconcile-subscriptions.js';
import { createSendRenewalRemindersHandler, scheduleRenewalReminders, SEND_RENEWAL_REMINDERS } from './send-renewal-reminders.js';
import { createSyncPlanPriceHandler, SYNC_PLAN_PRICE } from './sync-plan-price.js';

/** The recurring module's periodic jobs (their dedupe keys: the retention purge keeps their rows). */
export const RECURRING_PERIODIC_JOBS = [RECONCILE_SUBSCRIPTIONS, SEND_RENEWAL_REMINDERS];

/** The recurring module's jobs, by type, for the worker. */
export function recurringJobHandlers(deps: {
  reconcile: Parameters<typeof createReconcileSubscriptionsHandler>[0];
  reminders: Parameters<typeof createSendRenewalRemindersHandler>[0];
  planPrices: Parameters<typeof createSyncPlanPriceHandler>[0];
  deferRenewal: Parameters<typeof createDeferRenewalHandler>[0];
}): Record<string, JobHandler> {
  return {
    [RECONCILE_SUBSCRIPTIONS]: createReconcileSubscriptionsHandler(deps.reconcile),
    [SEND_RENEWAL_REMINDERS]: createSendRenewalRemindersHandler(deps.reminders),
    [SYNC_PLAN_PRICE]: createSyncPlanPriceHandler(deps.planPrices),
    [DEFER_RENEWAL]: createDeferRenewalHandler(deps.deferRenewal),
  };
}

/** Puts the recurring module's periodic jobs in the queue (once for all instances). */
export async function scheduleRecurringPaymentJobs(jobs: JobsRepo, now: Date): Promise<void> {
  await scheduleSubscriptionReconcile(jobs, now);
  await scheduleRenewalReminders(jobs, now);
}
