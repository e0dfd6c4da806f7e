/**
 * The desktop app as a device of the account (issue 24): a random id made once per server and kept in
 * the OS keychain beside the session (session-store.ts, `getDeviceId`), never a hardware serial or
 * anything read from the machine, and a plain description: the OS, its version, and "Mac"/"PC" with the
 * processor architecture. They go out as the headers VPN clients send on `/sub` (`x-hwid`,
 * `x-device-os`, `x-ver-os`, `x-device-model`) with every request the app makes to its server.
 * Nothing here imports Electron: the caller passes what it reads of the system.
 */
import { randomUUID } from 'node:crypto';
import { arch as osArch, release } from 'node:os';

export interface DeviceDescription {
  /** "Windows", "macOS" or "Linux". */
  os: string;
  /** The OS version (Electron's `process.getSystemVersion()`: "14.5", "10.0.22631"). */
  osVersion: string;
  /** "Mac (arm64)", "PC (x64)": a kind of machine, never one machine. */
  model: string;
}

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

/** What this machine is, in the words VPN clients use; `system` defaults to the running process's. */
export function describeThisDevice(system: { platform?: NodeJS.Platform; version?: string; arch?: string } = {}): DeviceDescription {
  const platform = system.platform ?? process.platform;
  const electronVersion = (process as { getSystemVersion?: () => string }).getSystemVersion;
  const version = system.version ?? (typeof electronVersion === 'function' ? electronVersion.call(process) : release());
  const arch = system.arch ?? osArch();
  return {
    os: OS_NAMES[platform] ?? platform,
    osVersion: version,
    model: `${platform === 'darwin' ? 'Mac' : 'PC'} (${arch})`,
  };
}

/** A fresh device id: random, so it says nothing about the machine. */
export const newDeviceId = (): string => randomUUID();

/** The device headers of every request the app makes to its server. */
export function deviceHeaders(deviceId: string, device: DeviceDescription): Record<string, string> {
  return { 'x-hwid': deviceId, 'x-device-os': device.os, 'x-ver-os': device.osVersion, 'x-device-model': device.model };
}
