/**
 * Devices of a VPN account (issue 24): a VPN client that sends `x-hwid` when it fetches `/sub/<token>`
 * is a device of that account. A plan's `deviceLimit` caps how many; `/sub` enforces it.
 */

/** The longest `x-hwid` kept; longer values are refused as no device id. */
export const HWID_MAX_LENGTH = 128;
/** The most devices a plan may allow (a larger number is the same as unlimited for a person). */
export const DEVICE_LIMIT_MAX = 100;

/**
 * What a client without an `x-hwid` header gets on an account whose plan limits devices: served without
 * counting (`allow`), a placeholder (`refuse`), or counted as a device by its app and address (`count`).
 */
export const DEVICELESS_CLIENT_POLICIES = ['allow', 'refuse', 'count'] as const;
export type DevicelessClientPolicy = (typeof DEVICELESS_CLIENT_POLICIES)[number];

/** How long an app without a device id, counted as a device, keeps its slot after it was last seen (hours). */
export const DEVICELESS_WINDOW = { defaultHours: 24, minHours: 1, maxHours: 720 } as const;

/** One device, as `GET /api/accounts/:id/devices` and the admin's user page list it. Never the raw hwid. */
export interface AccountDevice {
  id: string;
  /** `x-device-os`, e.g. "Android", "iOS", "Windows"; null when the client did not say. */
  os: string | null;
  /** `x-ver-os`. */
  osVersion: string | null;
  /** `x-device-model`. */
  model: string | null;
  /** The client app, from its User-Agent (e.g. "Happ/3.2.1", "Hiddify/2.5.7"); null when unknown. */
  app: string | null;
  /** An app that sends no device id, counted by its app and address ("Unknown device (v2rayNG)"). */
  anonymous: boolean;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** `GET /api/accounts/:id/devices` (the owner) and `GET /api/admin/accounts/:id/devices`. */
export interface AccountDevices {
  /** The account's device limit; null = unlimited. */
  limit: number | null;
  /** Oldest first. */
  devices: AccountDevice[];
}

/**
 * An account's device limit as `/sub` applies it: its plan's (the `device_limit` column; null = unlimited) and the
 * devices its add-ons add (`extra_devices`, kept with the add-on ledger).
 */
export function deviceLimitWithExtras(deviceLimit: unknown, extraDevices: unknown): number | null {
  if (deviceLimit === null || deviceLimit === undefined) return null;
  return Number(deviceLimit) + Math.max(0, Number(extraDevices ?? 0) || 0);
}
