/**
 * An account's devices as its owner and the admins see them (`GET …/devices`), and removing one
 * (`DELETE …/devices/:deviceId`), which frees its slot: at once on this instance, and through
 * `devicesChanged` (the broadcast) on the others. Access is one rule: a customer reaches only their own
 * accounts' devices, and a missing account or device, someone else's, or an id that cannot be one all
 * answer the same 404.
 */
import type { AccountDevice, AccountDevices } from '../../../../shared/devices.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { Actor } from '../users/index.js';
import type { DeviceAccount, DeviceRecord, DevicesRepo } from './devices.repo.js';

/** The broadcast channel on which instances tell each other that an account's devices changed (the message: its id). */
export const DEVICES_CHANGED_CHANNEL = 'devices-changed';

export const DEVICE_MESSAGES = { accountNotFound: 'Account not found', deviceNotFound: 'Device not found' } as const;

/** Whose devices: the signed-in customer's own accounts, or (admins) any account. */
export type DeviceViewer = { kind: 'owner'; userId: string; ip?: string | null } | { kind: 'admin'; actor: Actor };

const ACCOUNT_ID = /^[\x21-\x7e]{1,64}$/;
const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toDevice = (device: DeviceRecord): AccountDevice => ({
  id: device.id,
  os: device.os,
  osVersion: device.osVersion,
  model: device.model,
  app: device.app,
  anonymous: device.anonymous,
  firstSeenAt: device.firstSeenAt.toISOString(),
  lastSeenAt: device.lastSeenAt.toISOString(),
});

export function createDevicesService(deps: {
  repo: DevicesRepo;
  audit: AuditRepo;
  clock: Clock;
  /** A device of this account was removed: every instance's `/sub` forgets what it knew of its devices. */
  devicesChanged(accountId: string): void;
  /** How long an app without a device id keeps its slot (the admin's setting); without it, listed for ever. */
  devicelessWindowHours?: () => Promise<number>;
}) {
  const { repo } = deps;

  /** The account if the viewer may see it; undefined for a missing one, someone else's, or a malformed id. */
  async function visibleAccount(viewer: DeviceViewer, accountId: string): Promise<DeviceAccount | undefined> {
    if (!ACCOUNT_ID.test(accountId)) return undefined;
    return repo.findAccount(accountId, viewer.kind === 'owner' ? viewer.userId : undefined);
  }

  return {
    async listDevices(viewer: DeviceViewer, accountId: string): Promise<AccountDevices> {
      const account = await visibleAccount(viewer, accountId);
      if (!account) throw notFound(DEVICE_MESSAGES.accountNotFound);
      // An app without a device id is listed while it holds its slot (seen within the window).
      const hours = deps.devicelessWindowHours ? await deps.devicelessWindowHours() : null;
      const anonymousSince = hours === null ? undefined : new Date(deps.clock().getTime() - hours * 3_600_000);
      return { limit: account.deviceLimit, devices: (await repo.listForAccount(account.id, anonymousSince)).map(toDevice) };
    },

    async removeDevice(viewer: DeviceViewer, accountId: string, deviceId: string): Promise<void> {
      const account = DEVICE_ID.test(deviceId) ? await visibleAccount(viewer, accountId) : undefined;
      const removed = account && (await repo.remove(account.id, deviceId));
      if (!account || !removed) throw notFound(DEVICE_MESSAGES.deviceNotFound);
      deps.devicesChanged(account.id);
      // Removed by staff or by the customer: on the customer's page either way.
      const actor = viewer.kind === 'admin' ? viewer.actor : { id: viewer.userId, email: null, ip: viewer.ip ?? null };
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: viewer.kind === 'admin' ? 'account.device_remove' : 'account.device_remove_own',
        targetType: 'user',
        targetId: account.userId,
        details: { accountId: account.id, username: account.username, deviceId, os: removed.os, model: removed.model, app: removed.app },
        ip: actor.ip ?? null,
        now: deps.clock(),
      });
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
