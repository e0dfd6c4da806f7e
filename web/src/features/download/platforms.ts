import { useLingui } from '@lingui/react';
import type { ComponentType, SVGProps } from 'react';
import type { Platform } from '../../app/site-pages';
import { BoltIcon, CodeIcon, DevicesIcon, GlobeIcon, ShieldIcon } from '../../components/icons';
import { EyeOffIcon, LockIcon, SlidersIcon, WifiIcon } from '../../components/content/content-icons';

/**
 * What each download page says, as ids of the `download` catalogue. One template shows them all;
 * `{brand}` in a message stands for the brand name, `{locations}` for the locations claim.
 * The recommended client is Hiddify: open source, on every platform, and it reads our subscription
 * link directly (see spec/clients.md).
 */

/** A text on a download page: a message id, or a name that reads the same in every language (a store, a file format). */
export type PageText = { id: string } | { name: string };

export interface PlatformFeature {
  titleId: string;
  descriptionId: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

export interface SystemRequirement {
  labelId: string;
  /** A message; `bytes`, when given, is its `{size}` (e.g. '2 GB RAM'). */
  value: { id: string; bytes?: number };
}

export interface SetupStep {
  titleId: string;
  descriptionId: string;
}

export interface DownloadLink {
  label: PageText;
  /** A short note under the label, e.g. "Recommended" or "x64 installer from GitHub". */
  detail: PageText;
  href: string;
}

export interface PlatformContent {
  subtitleId: string;
  features: readonly PlatformFeature[];
  requirements: readonly SystemRequirement[];
  steps: readonly SetupStep[];
  downloads: readonly DownloadLink[];
  closing: { titleId: string; textId: string };
}

/** Shows a PageText in the page's language. */
export function usePageText(): (text: PageText) => string {
  const { _ } = useLingui();
  return (text) => ('id' in text ? _(text.id) : text.name);
}

export const HIDDIFY_RELEASES_URL = 'https://github.com/hiddify/hiddify-app/releases/latest';
export const HIDDIFY_GOOGLE_PLAY_URL = 'https://play.google.com/store/apps/details?id=app.hiddify.com';
export const HIDDIFY_APP_STORE_URL = 'https://apps.apple.com/us/app/hiddify-proxy-vpn/id6596777532';
export const HIDDIFY_MICROSOFT_STORE_URL = 'https://apps.microsoft.com/detail/9pdfnl3qv2s5';

const RELEASES_DETAIL: PageText = { id: 'download.detail.releases' };
const STORE_DETAIL: PageText = { id: 'download.detail.store' };
const CLOSING_TEXT = 'download.closing.text';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const RAM = (gigabytes: number): SystemRequirement => ({
  labelId: 'download.requirement.memory',
  value: { id: 'download.requirement.ram', bytes: gigabytes * GB },
});
const STORAGE: SystemRequirement = { labelId: 'download.requirement.storage', value: { id: 'download.requirement.freeSpace', bytes: 100 * MB } };
const OS = (valueId: string): SystemRequirement => ({ labelId: 'download.requirement.os', value: { id: valueId } });

function setupSteps(platform: Platform): SetupStep[] {
  return [
    { titleId: 'download.step.download', descriptionId: `download.${platform}.step.download` },
    { titleId: 'download.step.install', descriptionId: `download.${platform}.step.install` },
    { titleId: 'download.step.import', descriptionId: 'download.step.importText' },
    { titleId: 'download.step.connect', descriptionId: 'download.step.connectText' },
  ];
}

const COMMON_FEATURES: Record<'noLogs' | 'locations' | 'oneSubscription' | 'openSource' | 'publicWifi', PlatformFeature> = {
  openSource: { titleId: 'download.feature.openSource', descriptionId: 'download.feature.openSourceText', Icon: CodeIcon },
  noLogs: { titleId: 'download.feature.noLogs', descriptionId: 'download.feature.noLogsText', Icon: EyeOffIcon },
  locations: { titleId: 'download.feature.locations', descriptionId: 'download.feature.locationsText', Icon: GlobeIcon },
  oneSubscription: { titleId: 'download.feature.oneSubscription', descriptionId: 'download.feature.oneSubscriptionText', Icon: DevicesIcon },
  publicWifi: { titleId: 'download.feature.publicWifi', descriptionId: 'download.feature.publicWifiText', Icon: WifiIcon },
};

export const PLATFORM_CONTENT: Record<Platform, PlatformContent> = {
  windows: {
    subtitleId: 'download.windows.subtitle',
    features: [
      { titleId: 'download.windows.feature.wholeSystem', descriptionId: 'download.windows.feature.wholeSystemText', Icon: ShieldIcon },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      { titleId: 'download.windows.feature.autostart', descriptionId: 'download.windows.feature.autostartText', Icon: BoltIcon },
      COMMON_FEATURES.openSource,
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [OS('download.windows.requirement.os'), RAM(2), STORAGE],
    steps: setupSteps('windows'),
    downloads: [
      { label: { name: 'Microsoft Store' }, detail: STORE_DETAIL, href: HIDDIFY_MICROSOFT_STORE_URL },
      { label: { id: 'download.windows.installer' }, detail: RELEASES_DETAIL, href: HIDDIFY_RELEASES_URL },
    ],
    closing: { titleId: 'download.windows.closing', textId: CLOSING_TEXT },
  },
  macos: {
    subtitleId: 'download.macos.subtitle',
    features: [
      { titleId: 'download.macos.feature.appleSilicon', descriptionId: 'download.macos.feature.appleSiliconText', Icon: BoltIcon },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      { titleId: 'download.macos.feature.menuBar', descriptionId: 'download.macos.feature.menuBarText', Icon: SlidersIcon },
      COMMON_FEATURES.openSource,
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      OS('download.macos.requirement.os'),
      { labelId: 'download.requirement.processor', value: { id: 'download.macos.requirement.processor' } },
      RAM(4),
      STORAGE,
    ],
    steps: setupSteps('macos'),
    downloads: [
      { label: { name: 'App Store' }, detail: STORE_DETAIL, href: HIDDIFY_APP_STORE_URL },
      { label: { id: 'download.macos.dmg' }, detail: RELEASES_DETAIL, href: HIDDIFY_RELEASES_URL },
    ],
    closing: { titleId: 'download.macos.closing', textId: CLOSING_TEXT },
  },
  linux: {
    subtitleId: 'download.linux.subtitle',
    features: [
      { titleId: 'download.linux.feature.packages', descriptionId: 'download.linux.feature.packagesText', Icon: DevicesIcon },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      { titleId: 'download.linux.feature.tunnel', descriptionId: 'download.linux.feature.tunnelText', Icon: ShieldIcon },
      { titleId: 'download.feature.openSource', descriptionId: 'download.linux.feature.openSourceText', Icon: CodeIcon },
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      { labelId: 'download.requirement.distribution', value: { id: 'download.linux.requirement.distribution' } },
      { labelId: 'download.requirement.architecture', value: { id: 'download.linux.requirement.architecture' } },
      RAM(2),
      STORAGE,
    ],
    steps: setupSteps('linux'),
    downloads: [
      { label: { name: 'AppImage' }, detail: { id: 'download.linux.appImageDetail' }, href: HIDDIFY_RELEASES_URL },
      { label: { id: 'download.linux.deb' }, detail: { id: 'download.linux.debDetail' }, href: HIDDIFY_RELEASES_URL },
      { label: { id: 'download.linux.rpm' }, detail: { name: 'Fedora' }, href: HIDDIFY_RELEASES_URL },
    ],
    closing: { titleId: 'download.linux.closing', textId: CLOSING_TEXT },
  },
  android: {
    subtitleId: 'download.android.subtitle',
    features: [
      COMMON_FEATURES.publicWifi,
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      { titleId: 'download.android.feature.perApp', descriptionId: 'download.android.feature.perAppText', Icon: SlidersIcon },
      { titleId: 'download.android.feature.battery', descriptionId: 'download.android.feature.batteryText', Icon: BoltIcon },
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [OS('download.android.requirement.os'), RAM(2), STORAGE],
    steps: setupSteps('android'),
    downloads: [
      { label: { name: 'Google Play' }, detail: STORE_DETAIL, href: HIDDIFY_GOOGLE_PLAY_URL },
      { label: { id: 'download.android.apk' }, detail: RELEASES_DETAIL, href: HIDDIFY_RELEASES_URL },
    ],
    closing: { titleId: 'download.android.closing', textId: CLOSING_TEXT },
  },
  ios: {
    subtitleId: 'download.ios.subtitle',
    features: [
      COMMON_FEATURES.publicWifi,
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      { titleId: 'download.ios.feature.devices', descriptionId: 'download.ios.feature.devicesText', Icon: LockIcon },
      COMMON_FEATURES.openSource,
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [OS('download.ios.requirement.os'), { labelId: 'download.requirement.device', value: { id: 'download.ios.requirement.device' } }, STORAGE],
    steps: setupSteps('ios'),
    downloads: [{ label: { name: 'App Store' }, detail: { id: 'download.ios.appStoreDetail' }, href: HIDDIFY_APP_STORE_URL }],
    closing: { titleId: 'download.ios.closing', textId: CLOSING_TEXT },
  },
};
