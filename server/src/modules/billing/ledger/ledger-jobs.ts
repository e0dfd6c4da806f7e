import type { JobHandler } from '../../../jobs/worker.js';
import { createSyncPaidPeriodHandler, SYNC_PAID_PERIOD } from './sync-paid-period.js';

/** The ledger's jobs, by type, for the worker. */
export function ledgerJobHandlers(deps: Parameters<typeof createSyncPaidPeriodHandler>[0]): Record<string, JobHandler> {
  return {
    [SYNC_PAID_PERIOD]: createSyncPaidPeriodHandler(deps),
  };
}
