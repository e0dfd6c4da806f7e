import { z } from 'zod';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import type { Fulfilment } from '../fulfilment/fulfilment.js';
import type { AddOnsRepo } from './add-ons.repo.js';

const Payload = z.object({ transactionId: z.string().min(1) });

/** A refunded traffic add-on's panel limit comes down: retried until the panel answers. */
export function revokeAddOnHandler(fulfilment: Fulfilment): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad add-on payload');
    await fulfilment.revokeAddOn(parsed.data.transactionId);
  };
}

export const END_DEVICE_ADD_ONS = 'end_device_add_ons';

/** Every 10 minutes: accounts whose device add-ons ran to their period's end count without them (`/sub` reads the row). */
export function endDeviceAddOnsHandler(deps: { addOns: AddOnsRepo; clock: Clock }): JobHandler {
  return async () => {
    const now = deps.clock();
    let trimmed = 0;
    for (const accountId of await deps.addOns.accountsWithExtraDevices(1000)) {
      await deps.addOns.refreshExtraDevices(accountId, now);
      trimmed += await deps.addOns.trimDevices(accountId);
    }
    return { runAgainAt: addSeconds(now, 600), note: trimmed ? `${trimmed} devices lost the slot of an ended add-on` : null };
  };
}
