import { z } from 'zod';
import type { Fulfilment } from './fulfilment.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';

const Payload = z.object({ transactionId: z.string().min(1) });

/** Creates (or, for a renewal, extends) the account a succeeded payment bought; retried while no panel answers. */
export function createProvisionPaidAccountHandler(deps: { fulfilment: Fulfilment }): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad provisioning payload');
    await deps.fulfilment.fulfil(parsed.data.transactionId);
  };
}
