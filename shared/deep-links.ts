import type { Platform } from './platforms.js';

/**
 * Links that open an installed VPN client with the customer's subscription filled in
 * (spec/clients.md). Pure string building: no DOM, no Node.
 *
 * Encoding rules:
 * - in a `url=` query parameter the subscription URL is percent-encoded (encodeURIComponent), and
 *   `url=` always comes last, because some clients (Clash Verge Rev) take the rest of the query as
 *   the URL;
 * - where the client takes the URL as the link's path (`hiddify://import/<raw-url>`), it goes in raw;
 * - the profile name is percent-encoded wherever it goes (query or `#fragment`).
 */

export type ClientAppId =
  | 'hiddify'
  | 'v2rayng'
  | 'streisand'
  | 'shadowrocket'
  | 'happ'
  | 'v2box'
  | 'karing'
  | 'sing-box'
  | 'clash-verge'
  | 'mihomo-party'
  | 'flclash'
  | 'nekobox';

export interface ClientApp {
  id: ClientAppId;
  /** The app's display name, e.g. "Clash Verge Rev". */
  name: string;
  platforms: readonly Platform[];
  /** The deep link for this app: `subscriptionUrl` as served, `name` the profile title to show. */
  buildLink(subscriptionUrl: string, name: string): string;
}

export interface DeepLink {
  id: ClientAppId;
  name: string;
  platforms: readonly Platform[];
  href: string;
}

const enc = encodeURIComponent;

/** `scheme://<path>?name=<n>&url=<enc>`: the name first, the URL last. */
function queryLink(prefix: string, url: string, name?: string): string {
  const nameParam = name === undefined ? '' : `name=${enc(name)}&`;
  return `${prefix}?${nameParam}url=${enc(url)}`;
}

/** `scheme://<path>?url=<enc>#<name>`. */
function queryLinkWithFragment(prefix: string, url: string, name: string): string {
  return `${prefix}?url=${enc(url)}#${enc(name)}`;
}

/** `scheme://<path>/<raw-url>#<name>`: the URL unencoded, as these clients read the path. */
function rawLink(prefix: string, url: string, name?: string): string {
  return name === undefined ? `${prefix}${url}` : `${prefix}${url}#${enc(name)}`;
}

/** Every client with a link handler, recommended first (Hiddify runs everywhere). */
export const CLIENT_APPS: readonly ClientApp[] = [
  {
    id: 'hiddify',
    name: 'Hiddify',
    platforms: ['android', 'ios', 'macos', 'windows', 'linux'],
    buildLink: (url, name) => rawLink('hiddify://import/', url, name),
  },
  {
    id: 'v2rayng',
    name: 'v2rayNG',
    platforms: ['android'],
    buildLink: (url, name) => queryLinkWithFragment('v2rayng://install-sub', url, name),
  },
  {
    id: 'streisand',
    name: 'Streisand',
    platforms: ['ios', 'macos'],
    buildLink: (url, name) => rawLink('streisand://import/', url, name),
  },
  {
    id: 'shadowrocket',
    name: 'Shadowrocket',
    platforms: ['ios', 'macos'],
    buildLink: (url, name) => rawLink('shadowrocket://add/', url, name),
  },
  {
    id: 'happ',
    name: 'Happ',
    platforms: ['ios', 'android', 'macos', 'windows'],
    buildLink: (url) => rawLink('happ://add/', url),
  },
  {
    id: 'v2box',
    name: 'V2Box',
    platforms: ['ios', 'android'],
    buildLink: (url, name) => queryLink('v2box://install-sub', url, name),
  },
  {
    id: 'karing',
    name: 'Karing',
    platforms: ['android', 'ios', 'macos', 'windows', 'linux'],
    buildLink: (url, name) => queryLink('karing://install-config', url, name),
  },
  {
    id: 'sing-box',
    name: 'sing-box',
    platforms: ['android', 'ios', 'macos'],
    buildLink: (url, name) => queryLinkWithFragment('sing-box://import-remote-profile', url, name),
  },
  {
    id: 'clash-verge',
    name: 'Clash Verge Rev',
    platforms: ['windows', 'macos', 'linux'],
    buildLink: (url, name) => queryLink('clash-verge://install-config', url, name),
  },
  {
    id: 'mihomo-party',
    name: 'Mihomo Party',
    platforms: ['windows', 'macos', 'linux'],
    buildLink: (url, name) => queryLink('mihomo://install-config', url, name),
  },
  {
    id: 'flclash',
    name: 'FlClash',
    platforms: ['android', 'windows', 'macos', 'linux'],
    buildLink: (url) => queryLink('flclash://install-config', url),
  },
  {
    id: 'nekobox',
    name: 'NekoBox',
    platforms: ['android'],
    buildLink: (url, name) => queryLink('sn://subscription', url, name),
  },
];

/** The deep link of every client for one subscription. */
export function buildDeepLinks(subscriptionUrl: string, name: string): DeepLink[] {
  return CLIENT_APPS.map(({ id, name: appName, platforms, buildLink }) => ({
    id,
    name: appName,
    platforms,
    href: buildLink(subscriptionUrl, name),
  }));
}

/** The clients that run on `platform`, recommended first. */
export function clientsForPlatform(platform: Platform): ClientApp[] {
  return CLIENT_APPS.filter((app) => app.platforms.includes(platform));
}
