import type { I18n } from '@lingui/core';
import type { AccountDevice, AccountDevices } from '../../../../shared/devices.js';
import type { Formatters } from '../../i18n/format';

/** `_` of `useLingui()`. */
type Translate = I18n['_'];

/**
 * VPN apps known to send a device id (`x-hwid`) when they update a subscription: the empty list names
 * them so the customer knows which of their apps will show up. (v2rayN, v2rayNG, Hiddify, Clash Verge Rev
 * and FlClash send none: they show up only where the store counts apps without an id.)
 */
export const APPS_SENDING_DEVICE_ID = ['Happ', 'v2RayTun', 'INCY'] as const;

/** The app's name without its version ('v2rayNG/1.9.5' → 'v2rayNG'); null when unknown. */
export function appName(app: string | null): string | null {
  return app?.split('/')[0] || null;
}

/** The operating system and its version as the app reported them ('Android 14'); null when it said neither. */
export function deviceSystem(device: Pick<AccountDevice, 'os' | 'osVersion'>): string | null {
  return [device.os, device.osVersion].filter(Boolean).join(' ') || null;
}

/**
 * What tells one device from another, for its heading and the screen reader's name of its Remove
 * button: 'Pixel 8 · Android 14 · Happ/3.2.1'; null when the app reported nothing about it.
 */
export function deviceLabel(device: AccountDevice): string | null {
  return [device.model, deviceSystem(device), device.app].filter(Boolean).join(' · ') || null;
}

/** The count on an account's Devices button: '2 of 3' under a limit, '2' without one. */
export function devicesCountText(_: Translate, format: Formatters, devices: AccountDevices): string {
  const count = format.number(devices.devices.length);
  return devices.limit === null ? count : _('account.devices.count', { count, limit: format.number(devices.limit) });
}

/** The line above the list: '2 of 3 devices in use', or '2 devices, no limit'. */
export function devicesUsageText(_: Translate, format: Formatters, devices: AccountDevices): string {
  const count = devices.devices.length;
  if (devices.limit === null) return _('account.devices.usedUnlimited', { count });
  return _('account.devices.usedOfLimit', { count: format.number(count), limit: devices.limit });
}

/** Whether a new device would be refused a configuration until one is removed. */
export function isAtLimit(devices: AccountDevices): boolean {
  return devices.limit !== null && devices.devices.length >= devices.limit;
}
