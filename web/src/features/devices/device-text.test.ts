import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountDevice, AccountDevices } from '../../../../shared/devices.js';
import { i18nFor, loadCatalogs } from '../../i18n/catalogs';
import { createFormatters } from '../../i18n/format';
import { appName, deviceLabel, deviceSystem, devicesCountText, devicesUsageText, isAtLimit } from './device-text';

const device = (changes: Partial<AccountDevice> = {}): AccountDevice => ({
  id: 'd1',
  os: 'Android',
  osVersion: '14',
  model: 'Pixel 8',
  app: 'Happ/3.2.1',
  anonymous: false,
  firstSeenAt: '2025-01-02T10:00:00.000Z',
  lastSeenAt: '2025-01-03T10:00:00.000Z',
  ...changes,
});
const list = (count: number, limit: number | null): AccountDevices => ({
  limit,
  devices: Array.from({ length: count }, (_, index) => device({ id: `d${index}` })),
});

/** The text in `locale`, with its real catalogue and number formats. */
const inLocale = (locale: 'en' | 'ru' | 'fa' | 'zh-CN') => ({ _: i18nFor(locale)._.bind(i18nFor(locale)), format: createFormatters(locale) });

beforeAll(async () => {
  for (const locale of ['en', 'ru', 'fa', 'zh-CN'] as const) await loadCatalogs(locale, ['account', 'common']);
});

describe('deviceLabel', () => {
  it('names a device by model, system and app', () => {
    expect(deviceLabel(device())).toBe('Pixel 8 · Android 14 · Happ/3.2.1');
    expect(deviceSystem(device({ osVersion: null }))).toBe('Android');
  });

  it('is null when the app reported nothing about the device', () => {
    expect(deviceLabel(device({ os: null, osVersion: null, model: null, app: null }))).toBeNull();
    expect(deviceSystem(device({ os: null, osVersion: null }))).toBeNull();
  });
});

describe('devicesCountText', () => {
  it("says '2 of 3' under a limit and '2' without one", () => {
    const { _, format } = inLocale('en');
    expect(devicesCountText(_, format, list(2, 3))).toBe('2 of 3');
    expect(devicesCountText(_, format, list(2, null))).toBe('2');
  });

  it('writes the numbers in Persian digits on the Persian site', () => {
    const { _, format } = inLocale('fa');
    expect(devicesCountText(_, format, list(2, 3))).toBe('۲ از ۳');
  });
});

describe('devicesUsageText', () => {
  it('pluralises the limit in English', () => {
    const { _, format } = inLocale('en');
    expect(devicesUsageText(_, format, list(0, 1))).toBe('0 of 1 device in use');
    expect(devicesUsageText(_, format, list(1, 3))).toBe('1 of 3 devices in use');
    expect(devicesUsageText(_, format, list(1, null))).toBe('1 device in use, no limit');
  });

  it('uses the Russian plural forms', () => {
    const { _, format } = inLocale('ru');
    expect(devicesUsageText(_, format, list(1, 1))).toBe('Используется 1 из 1 устройства');
    expect(devicesUsageText(_, format, list(2, 3))).toBe('Используется 2 из 3 устройств');
    expect(devicesUsageText(_, format, list(2, 21))).toBe('Используется 2 из 21 устройства');
    expect(devicesUsageText(_, format, list(5, null))).toBe('Используется 5 устройств, без ограничения');
  });

  it('writes Persian digits and Chinese text', () => {
    expect(devicesUsageText(inLocale('fa')._, inLocale('fa').format, list(2, 5))).toBe('در حال استفاده: ۲ از ۵ دستگاه');
    expect(devicesUsageText(inLocale('zh-CN')._, inLocale('zh-CN').format, list(2, 5))).toBe('已使用 2 台设备，上限 5 台');
  });
});

describe('isAtLimit', () => {
  it('is true once the devices fill the limit, never without one', () => {
    expect(isAtLimit(list(2, 3))).toBe(false);
    expect(isAtLimit(list(3, 3))).toBe(true);
    expect(isAtLimit(list(50, null))).toBe(false);
  });
});

describe('appName', () => {
  it('names an app without its version', () => {
    expect(appName('v2rayNG/1.9.5')).toBe('v2rayNG');
    expect(appName('Hiddify')).toBe('Hiddify');
    expect(appName(null)).toBeNull();
  });
});
