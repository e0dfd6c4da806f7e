import type { AccountDevices } from '../../../../shared/devices.js';

/** Where an account's devices come from: the owner's API (dashboard, desktop) or the admin's (user page). */
export interface DeviceSource {
  list(accountId: string, signal?: AbortSignal): Promise<AccountDevices>;
  remove(accountId: string, deviceId: string): Promise<void>;
}

/** One account's devices as the screen knows them: none yet while the first load runs, `failed` when the last one did. */
export interface DevicesState {
  devices: AccountDevices | null;
  failed: boolean;
}
