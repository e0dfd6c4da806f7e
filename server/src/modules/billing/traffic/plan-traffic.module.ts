import { defineModule } from '../../module.js';
import type { WithRecurringPayments } from '../recurring/recurring-payments.module.js';
import { createGraceDataLimitHandler, SET_GRACE_DATA_LIMIT } from './grace-data-limit.js';
import type { PlanTrafficDeps } from './plan-traffic-deps.js';
import { createResetMonthlyTrafficHandler, RESET_MONTHLY_TRAFFIC } from './reset-monthly-traffic.js';
import { createScanPlanTrafficHandler, SCAN_PLAN_TRAFFIC, scanPlanTraffic } from './scan-plan-traffic.js';

const trafficDeps = (deps: WithRecurringPayments): PlanTrafficDeps => ({
  db: deps.db,
  steps: deps.planTrafficRepo,
  accounts: deps.accountsRepo,
  servers: deps.servers,
  billing: deps.billingRepo,
  periods: deps.periods,
  paidPeriods: deps.paidPeriods,
  jobs: deps.jobs,
  clock: deps.clock,
});

/**
 * The traffic rules the operator chooses per plan, applied by the store on every panel kind: a monthly reset of the
 * data through a longer paid period (with or without carrying the unused data over) and a grace limit of data after
 * the paid end. The grace days themselves are the ledger's (paid-period.ts), a renewal's carry-over its delivery's.
 */
export const planTrafficModule = defineModule({
  name: 'billing-plan-traffic',
  build(deps: WithRecurringPayments) {
    return { planTraffic: { scan: () => scanPlanTraffic(trafficDeps(deps)) } };
  },
  jobs: (deps) => {
    const traffic = trafficDeps(deps);
    return {
      [SCAN_PLAN_TRAFFIC]: createScanPlanTrafficHandler(traffic),
      [RESET_MONTHLY_TRAFFIC]: createResetMonthlyTrafficHandler(traffic),
      [SET_GRACE_DATA_LIMIT]: createGraceDataLimitHandler(traffic),
    };
  },
  periodicJobs: [SCAN_PLAN_TRAFFIC],
});
