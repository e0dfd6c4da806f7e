import type { Platform } from '../../../../shared/platforms.js';
import {
  HIDDIFY_APP_STORE_URL,
  HIDDIFY_GOOGLE_PLAY_URL,
  HIDDIFY_MICROSOFT_STORE_URL,
  HIDDIFY_RELEASES_URL,
} from './platforms';

/**
 * The free client apps each download page recommends, with their official download places only
 * (the developer's store listing or project page). All read our subscription link (spec/clients.md).
 */
export interface ClientAppLink {
  label: string;
  href: string;
}

export interface ClientApp {
  name: string;
  description: string;
  links: readonly ClientAppLink[];
}

const GITHUB_RELEASES = 'GitHub releases';
const CLASH_VERGE_REV: ClientApp = {
  name: 'Clash Verge Rev',
  description: 'A desktop client with rule-based routing, for those who want to choose what goes through the VPN.',
  links: [{ label: GITHUB_RELEASES, href: 'https://github.com/clash-verge-rev/clash-verge-rev/releases/latest' }],
};
const V2RAYN: ClientApp = {
  name: 'v2rayN',
  description: 'A long-standing desktop client; paste your subscription link under Subscription group.',
  links: [{ label: GITHUB_RELEASES, href: 'https://github.com/2dust/v2rayN/releases/latest' }],
};
const KARING: ClientApp = {
  name: 'Karing',
  description: 'Works on every platform and imports the subscription link in one tap.',
  links: [{ label: GITHUB_RELEASES, href: 'https://github.com/KaringX/karing/releases/latest' }],
};
const SING_BOX: ClientApp = {
  name: 'sing-box',
  description: 'The official sing-box app from the project that powers many other clients.',
  links: [{ label: 'sing-box clients', href: 'https://sing-box.sagernet.org/clients/' }],
};

function hiddify(links: readonly ClientAppLink[]): ClientApp {
  return {
    name: 'Hiddify',
    description: 'Recommended: free, open source and ad-free; imports your subscription link in one tap.',
    links,
  };
}

export const CLIENT_APPS: Record<Platform, readonly ClientApp[]> = {
  windows: [
    hiddify([
      { label: 'Microsoft Store', href: HIDDIFY_MICROSOFT_STORE_URL },
      { label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL },
    ]),
    CLASH_VERGE_REV,
    V2RAYN,
    KARING,
  ],
  macos: [
    hiddify([
      { label: 'App Store', href: HIDDIFY_APP_STORE_URL },
      { label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL },
    ]),
    CLASH_VERGE_REV,
    SING_BOX,
    KARING,
  ],
  linux: [hiddify([{ label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL }]), CLASH_VERGE_REV, V2RAYN, KARING],
  android: [
    hiddify([
      { label: 'Google Play', href: HIDDIFY_GOOGLE_PLAY_URL },
      { label: GITHUB_RELEASES, href: HIDDIFY_RELEASES_URL },
    ]),
    {
      name: 'v2rayNG',
      description: 'A popular, lightweight Android client; add the link under Subscription group settings.',
      links: [
        { label: 'Google Play', href: 'https://play.google.com/store/apps/details?id=com.v2ray.ang' },
        { label: GITHUB_RELEASES, href: 'https://github.com/2dust/v2rayNG/releases/latest' },
      ],
    },
    SING_BOX,
    KARING,
  ],
  ios: [hiddify([{ label: 'App Store', href: HIDDIFY_APP_STORE_URL }]), SING_BOX, KARING],
};
