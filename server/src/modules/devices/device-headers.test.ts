import { describe, expect, it } from 'vitest';
import { HWID_MAX_LENGTH } from '../../../../shared/devices.js';
import { appFromUserAgent, readClientDevice, readHwid } from './device-headers.js';

describe('the device headers a VPN client sends', () => {
  it('reads x-hwid with the OS, its version, the model and the app', () => {
    const described = (device: ReturnType<typeof readClientDevice>) =>
      device && { hwid: device.hwid, os: device.os, osVersion: device.osVersion, model: device.model, app: device.app };
    expect(
      described(
        readClientDevice({
          'x-hwid': '  a1b2c3d4e5f6  ',
          'x-device-os': 'Android',
          'x-ver-os': '14',
          'x-device-model': 'Pixel 8',
          'user-agent': 'Happ/3.2.1',
        }),
      ),
    ).toEqual({ hwid: 'a1b2c3d4e5f6', os: 'Android', osVersion: '14', model: 'Pixel 8', app: 'Happ/3.2.1' });
    expect(described(readClientDevice({ 'x-hwid': 'abc' }))).toEqual({ hwid: 'abc', os: null, osVersion: null, model: null, app: null });
  });

  it('treats an empty, blank or over-long x-hwid as no device id', () => {
    expect(readClientDevice({})).toBeNull();
    expect(readHwid('')).toBeNull();
    expect(readHwid('   ')).toBeNull();
    expect(readHwid('x'.repeat(HWID_MAX_LENGTH + 1))).toBeNull();
    expect(readHwid('x'.repeat(HWID_MAX_LENGTH))).toBe('x'.repeat(HWID_MAX_LENGTH));
    expect(readHwid(['first-id', 'second-id'])).toBe('first-id');
  });

  it('strips control and direction characters, collapses spaces and caps each field', () => {
    const device = readClientDevice({
      'x-hwid': 'id\u0000\u001b-1',
      'x-device-os': 'i\u202eOS\u0007',
      'x-ver-os': '17.5\t\t beta',
      'x-device-model': 'M'.repeat(200),
    })!;
    expect(device.hwid).toBe('id-1');
    expect(device.os).toBe('i OS');
    expect(device.osVersion).toBe('17.5 beta');
    expect(device.model).toBe('M'.repeat(64));
    expect(readClientDevice({ 'x-hwid': 'id', 'x-device-os': '\u0001\u0002 ' })!.os).toBeNull();
  });

  it.each([
    ['Happ/3.2.1', 'Happ/3.2.1'],
    ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', 'HiddifyNext/2.5.7'],
    ['v2rayNG/1.8.0', 'v2rayNG/1.8.0'],
    ['FlClash/v0.8.40 clash-verge Platform/android', 'FlClash/v0.8.40'],
    ['Streisand', 'Streisand'],
    ['', null],
    [undefined, null],
  ])('names the app of User-Agent %j: %j', (ua, app) => {
    expect(appFromUserAgent(ua)).toBe(app);
  });
});
