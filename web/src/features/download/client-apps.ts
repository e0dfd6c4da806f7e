import type { Platform } from '../../../../shared/platforms.js';
import { HIDDIFY_APP_STORE_URL, HIDDIFY_GOOGLE_PLAY_URL, HIDDIFY_MICROSOFT_STORE_URL, HIDDIFY_RELEASES_URL, type PageText } from './platforms';

/**
 * The free client apps each download page recommends, with their official download places only
 * (the developer's store listing or project page). All read our subscription link (spec/clients.md).
 */
export interface ClientAppLink {
  label: PageText;
  href: string;
}

export interface ClientApp {
  /** The app's own name, the same in every language. */
  name: string;
  /** An id of the `download` catalogue. */
  descriptionId: string;
  links: readonly ClientAppLink[];
}

const GITHUB_RELEASES: PageText = { id: 'download.apps.githubReleases' };
const CLASH_VERGE_REV: ClientApp = {
  name: 'Clash Verge Rev',
  descriptionId: 'download.apps.clashVergeRev',
  links: [{ label: GITHUB_RELEASES, href: 'https://github.com/clash-verge-rev/clash-verge-rev/releases/latest' }],
};
const V2RAYN: ClientApp = {
  name: 'v2rayN',
  descriptionId: 'download.apps.v2rayN',
  links: [{ label: GITHUB_RELEASES, href: 'https://github.com/2dust/v2rayN/releases/latest' }],
};
const KARING: ClientApp = {
  name: 'Karing',
  descriptionId: 'download.apps.karing',
  links: [{ label: GITHUB_RELEASES, href: 'https://github.com/KaringX/karing/releases/latest' }],
};
const SING_BOX: ClientApp = {
  name: 'sing-box',
  descriptionId: 'download.apps.singBox',
  links: [{ label: { id: 'download.apps.singBoxClients' }, href: 'https://sing-box.sagernet.org/clients/' }],
};

function hiddify(links: readonly ClientAppLink[]): ClientApp {
  return {
    name: 'Hiddify',
    descriptionId: 'download.apps.hiddify',
    links,
  };
}

export const CLIENT_APPS: Record<Platform, readonly ClientApp[]> = {
  windows: [
    hiddify([
      { label: { name: 'Microsoft Store' }, href: HIDDIFY_MICROSOFT_STORE_URL },
      { label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL },
    ]),
    CLASH_VERGE_REV,
    V2RAYN,
    KARING,
  ],
  macos: [
    hiddify([
      { label: { name: 'App Store' }, href: HIDDIFY_APP_STORE_URL },
      { label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL },
    ]),
    CLASH_VERGE_REV,
    SING_BOX,
    KARING,
  ],
  linux: [hiddify([{ label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL }]), CLASH_VERGE_REV, V2RAYN, KARING],
  android: [
    hiddify([
      { label: { name: 'Google Play' }, href: HIDDIFY_GOOGLE_PLAY_URL },
      { label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL },
    ]),
    {
      name: 'v2rayNG',
      descriptionId: 'download.apps.v2rayNG',
      links: [
        { label: { name: 'Google Play' }, href: 'https://play.google.com/store/apps/details?id=com.v2ray.ang' },
        { label: GITHUB_RELEASES, href: 'https://github.com/2dust/v2rayNG/releases/latest' },
      ],
    },
    SING_BOX,
    KARING,
  ],
  ios: [hiddify([{ label: { name: 'App Store' }, href: HIDDIFY_APP_STORE_URL }]), SING_BOX, KARING],
};
