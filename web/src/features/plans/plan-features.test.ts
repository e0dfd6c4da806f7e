import { describe, expect, it } from 'vitest';
import type { Locale } from '../../../../shared/locales.js';
import { i18nFor, loadCatalogs } from '../../i18n/catalogs';
import { claimsUnlimitedDevices, planFeatureLines } from './plan-features';

const SEEDED = [
  '300 GB of data every month',
  'Servers in every location',
  'Unlimited devices on one subscription link',
  'Open-source apps for Windows, macOS, Linux, Android and iOS',
];
const upTo = (limit: number) => `Up to ${limit} devices`;

describe('planFeatureLines', () => {
  it('shows the features as written when the plan has no device limit', () => {
    expect(planFeatureLines({ features: SEEDED, deviceLimit: null }, upTo)).toEqual(SEEDED);
  });

  it("puts 'Up to N devices' where the seeded unlimited-devices line stood", () => {
    expect(planFeatureLines({ features: SEEDED, deviceLimit: 3 }, upTo)).toEqual([
      '300 GB of data every month',
      'Servers in every location',
      'Up to 3 devices',
      'Open-source apps for Windows, macOS, Linux, Android and iOS',
    ]);
  });

  it('drops every line that promises unlimited devices and says the limit once', () => {
    const lines = planFeatureLines({ features: ['Unlimited devices', 'Fast', 'Any number of devices at home'], deviceLimit: 2 }, upTo);
    expect(lines).toEqual(['Up to 2 devices', 'Fast']);
  });

  it('lists the limit first when no line spoke of devices', () => {
    expect(planFeatureLines({ features: ['Fast'], deviceLimit: 5 }, upTo)).toEqual(['Up to 5 devices', 'Fast']);
    expect(planFeatureLines({ features: [], deviceLimit: 1 }, upTo)).toEqual(['Up to 1 devices']);
  });

  it('treats a plan without the field (an older server) as unlimited', () => {
    const plan = { features: SEEDED } as unknown as { features: string[]; deviceLimit: number | null };
    expect(planFeatureLines(plan, upTo)).toEqual(SEEDED);
  });
});

describe('claimsUnlimitedDevices', () => {
  it.each([
    'Unlimited devices on one subscription link',
    'unlimited simultaneous devices',
    'Use it on any number of devices',
    'No device limit',
    'Безлимитное количество устройств по одной ссылке',
    'Неограниченное число устройств',
    'Любое количество устройств',
    'دستگاه‌های نامحدود با یک لینک اشتراک',
    'تعداد نامحدود دستگاه',
    '无限设备，一个订阅链接',
    '不限设备数量',
    '设备数量不限',
  ])('finds the claim in %s', (line) => {
    expect(claimsUnlimitedDevices(line)).toBe(true);
  });

  it.each([
    'Unlimited data on all your devices',
    'Servers in every location',
    '300 GB of data every month',
    'Безлимитный трафик на всех устройствах',
    'ترافیک نامحدود',
    '无限流量，所有设备可用',
  ])('leaves %s alone', (line) => {
    expect(claimsUnlimitedDevices(line)).toBe(false);
  });
});

describe("'Up to N devices' in every language of the site", () => {
  const upToIn = async (locale: Locale, count: number) => {
    await loadCatalogs(locale, ['pricing']);
    return i18nFor(locale)._('pricing.devices.upTo', { count });
  };

  it.each([
    ['en', 1, 'Up to 1 device'],
    ['en', 2, 'Up to 2 devices'],
    ['ru', 1, 'До 1 устройства'],
    ['ru', 2, 'До 2 устройств'],
    ['ru', 5, 'До 5 устройств'],
    ['ru', 21, 'До 21 устройства'],
    ['fa', 3, 'حداکثر ۳ دستگاه'],
    ['zh-CN', 3, '最多 3 台设备'],
  ] as const)('%s, %i: %s', async (locale, count, text) => {
    expect(await upToIn(locale, count)).toBe(text);
  });
});
