import { describe, expect, it, vi } from 'vitest';
import { deviceHeaders, describeThisDevice, newDeviceId } from './device-identity.js';

// Nothing here may need Electron: the module reads the system through node and the process only.
vi.mock('electron', () => {
  throw new Error('device-identity must not import electron');
});

describe('the desktop app as a device', () => {
  it('describes the machine by its OS, version and kind, never by anything that names one machine', () => {
    expect(describeThisDevice({ platform: 'darwin', version: '14.5', arch: 'arm64' })).toEqual({ os: 'macOS', osVersion: '14.5', model: 'Mac (arm64)' });
    expect(describeThisDevice({ platform: 'win32', version: '10.0.22631', arch: 'x64' })).toEqual({
      os: 'Windows',
      osVersion: '10.0.22631',
      model: 'PC (x64)',
    });
    expect(describeThisDevice({ platform: 'linux', version: '6.8.0', arch: 'x64' })).toEqual({ os: 'Linux', osVersion: '6.8.0', model: 'PC (x64)' });
    const here = describeThisDevice();
    expect(here.osVersion).not.toBe('');
    expect(here.model).toMatch(/^(Mac|PC) \([a-z0-9_]+\)$/);
  });

  it('makes a random id each time it is asked for a new one', () => {
    const ids = new Set(Array.from({ length: 20 }, newDeviceId));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sends the headers VPN clients send on /sub', () => {
    expect(deviceHeaders('5f0c6d0e-4c0b-4f43-9a4e-2f1d1b7b9c11', { os: 'macOS', osVersion: '14.5', model: 'Mac (arm64)' })).toEqual({
      'x-hwid': '5f0c6d0e-4c0b-4f43-9a4e-2f1d1b7b9c11',
      'x-device-os': 'macOS',
      'x-ver-os': '14.5',
      'x-device-model': 'Mac (arm64)',
    });
  });
});
