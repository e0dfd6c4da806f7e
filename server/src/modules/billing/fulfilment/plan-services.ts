import { planServiceOn } from '../../../../../shared/plan-servers.js';
import type { PanelAccount, PanelDriver } from '../../../panels/panel-driver.js';
import type { PlansRepo } from '../../plans/index.js';
import type { ServerRecord } from '../../servers/index.js';

/**
 * An account that changed plan on the same panel user gets the squads, groups, services or inbounds of its new plan
 * on its server (locations per plan, shared/plan-servers.ts): asked of the panel only when they differ from the old
 * plan's there, so a change between plans that list nothing costs no request. A plan gone since counts as listing
 * nothing (the server's own). Returns the panel's answer when it was asked.
 */
export async function movePlanServices(
  deps: { plans: Pick<PlansRepo, 'findById'> },
  target: { driver: PanelDriver; server: ServerRecord; username: string },
  fromPlanId: string | null | undefined,
  toPlanId: string | null | undefined,
): Promise<PanelAccount | null> {
  const servicesOf = async (planId: string | null | undefined) => {
    const plan = planId ? await deps.plans.findById(planId) : undefined;
    return planServiceOn(plan ?? { servers: [] }, target.server);
  };
  const [before, after] = [await servicesOf(fromPlanId), await servicesOf(toPlanId)];
  if (before === after) return null;
  return target.driver.setServices(target.username, after);
}
