import { z } from 'zod';
import type { AccountDevice, AccountDevices } from '../../../shared/devices.js';

/**
 * What the devices routes answer: an account's devices, checked against the shared type the service returns (a
 * removal answers nothing: lib/route-schemas.ts's NoContent).
 */

/** One device of the account: what its app said of it, never its raw hwid. */
const AccountDeviceAnswer = z.object({
  id: z.string(),
  os: z.string().nullable(),
  osVersion: z.string().nullable(),
  model: z.string().nullable(),
  app: z.string().nullable(),
  anonymous: z.boolean(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
}) satisfies z.ZodType<AccountDevice>;

/** `GET /api/accounts/:id/devices` and `GET /api/admin/accounts/:id/devices`: the limit (null = unlimited) and the devices, oldest first. */
export const AccountDevicesAnswer = z.object({
  limit: z.number().int().nullable(),
  devices: z.array(AccountDeviceAnswer),
}) satisfies z.ZodType<AccountDevices>;
