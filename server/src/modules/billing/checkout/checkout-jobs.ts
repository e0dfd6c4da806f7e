import type { JobHandler } from '../../../jobs/worker.js';
import { createCheckCheckoutHandler } from './check-checkout.js';
import { CHECK_CHECKOUT } from './checkout.service.js';
import { PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';
import { createProvisionPaidAccountHandler } from '../fulfilment/provision-paid-account.js';
import { createPollOpenCheckoutsHandler, POLL_OPEN_CHECKOUTS } from './poll-open-checkouts.js';
import { createSettleCardPlanChangeHandler, SETTLE_CARD_PLAN_CHANGE } from './card-plan-change.js';

/** The checkout module's jobs, by type, for the worker. */
export function checkoutJobHandlers(
  deps: Parameters<typeof createCheckCheckoutHandler>[0] &
    Parameters<typeof createProvisionPaidAccountHandler>[0] &
    Parameters<typeof createPollOpenCheckoutsHandler>[0] &
    Parameters<typeof createSettleCardPlanChangeHandler>[0],
): Record<string, JobHandler> {
  return {
    [CHECK_CHECKOUT]: createCheckCheckoutHandler(deps),
    [PROVISION_PAID_ACCOUNT]: createProvisionPaidAccountHandler(deps),
    [POLL_OPEN_CHECKOUTS]: createPollOpenCheckoutsHandler(deps),
    [SETTLE_CARD_PLAN_CHANGE]: createSettleCardPlanChangeHandler(deps),
  };
}
