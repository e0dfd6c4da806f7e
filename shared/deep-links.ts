/**
 * Links that open a VPN client with our subscription filled in (clients.md, "Deep links").
 * Pure functions with no node, DOM or server imports: the web app and the desktop app use them too.
 *
 * Rules: the subscription URL is percent-encoded when it goes in `url=`, and `url=` comes last (some
 * parsers take the rest of the query as the URL); clients that need one format get the URL that forces
 * it (`/sing-box`, `/clash-meta`); each app's own scheme, never the contested `clash://`.
 */
import type { Platform } from './platforms.js';

export type { Platform } from './platforms.js';

/** The path suffix a client's link points at: `''` = the plain link (the client's User-Agent picks the format). */
export type DeepLinkFormat = '' | '/sing-box' | '/clash-meta';

export interface VpnClientApp {
  id: string;
  name: string;
  platforms: readonly Platform[];
  format: DeepLinkFormat;
  /** `url` is the (format-specific) subscription URL, `name` the profile name; both raw. */
  link(url: string, name: string): string;
}

const enc = encodeURIComponent;

/** In the order a page should offer them: the most capable, most common clients first. */
export const VPN_CLIENT_APPS: readonly VpnClientApp[] = [
  {
    id: 'hiddify',
    name: 'Hiddify',
    platforms: ['android', 'ios', 'macos', 'windows', 'linux'],
    format: '',
    link: (url, name) => `hiddify://import/${url}#${enc(name)}`,
  },
  {
    // UrlSchemeActivity.kt: `install-config` and `install-sub` alike; the profile name is the fragment.
    id: 'v2rayng',
    name: 'v2rayNG',
    platforms: ['android'],
    format: '',
    link: (url, name) => `v2rayng://install-config?url=${enc(url)}#${enc(name)}`,
  },
  {
    id: 'streisand',
    name: 'Streisand',
    platforms: ['ios', 'macos'],
    format: '',
    link: (url, name) => `streisand://import/${url}#${enc(name)}`,
  },
  {
    id: 'clash-verge',
    name: 'Clash Verge Rev',
    platforms: ['windows', 'macos', 'linux'],
    format: '/clash-meta',
    link: (url, name) => `clash-verge://install-config?name=${enc(name)}&url=${enc(url)}`,
  },
  {
    id: 'sing-box',
    name: 'sing-box',
    platforms: ['android', 'ios', 'macos'],
    format: '/sing-box',
    link: (url, name) => `sing-box://import-remote-profile?url=${enc(url)}#${enc(name)}`,
  },
  {
    id: 'happ',
    name: 'Happ',
    platforms: ['ios', 'android', 'macos', 'windows'],
    format: '',
    link: (url) => `happ://add/${url}`,
  },
  {
    // Vendor documentation: the raw URL after `import/`.
    id: 'v2raytun',
    name: 'v2RayTun',
    platforms: ['ios', 'android', 'windows', 'macos'],
    format: '',
    link: (url) => `v2raytun://import/${url}`,
  },
  {
    // Vendor documentation (docs.incy.cc): the raw URL after `add/`.
    id: 'incy',
    name: 'INCY',
    platforms: ['ios', 'android'],
    format: '',
    link: (url) => `incy://add/${url}`,
  },
  {
    id: 'shadowrocket',
    name: 'Shadowrocket',
    platforms: ['ios', 'macos'],
    format: '',
    link: (url, name) => `shadowrocket://add/${url}#${enc(name)}`,
  },
  {
    id: 'karing',
    name: 'Karing',
    platforms: ['android', 'ios', 'macos', 'windows', 'linux'],
    format: '',
    link: (url, name) => `karing://install-config?name=${enc(name)}&url=${enc(url)}`,
  },
  {
    id: 'mihomo-party',
    name: 'Mihomo Party',
    platforms: ['windows', 'macos', 'linux'],
    format: '/clash-meta',
    link: (url, name) => `mihomo://install-config?name=${enc(name)}&url=${enc(url)}`,
  },
  {
    id: 'flclash',
    name: 'FlClash',
    platforms: ['android', 'windows', 'macos', 'linux'],
    format: '/clash-meta',
    link: (url) => `flclash://install-config?url=${enc(url)}`,
  },
  {
    id: 'nekobox',
    name: 'NekoBox',
    platforms: ['android'],
    format: '',
    link: (url, name) => `sn://subscription?name=${enc(name)}&url=${enc(url)}`,
  },
  {
    id: 'v2box',
    name: 'V2Box',
    platforms: ['ios', 'android'],
    format: '',
    link: (url, name) => `v2box://install-sub?name=${enc(name)}&url=${enc(url)}`,
  },
];

export interface DeepLink {
  clientId: string;
  clientName: string;
  href: string;
}

/** The display order of platforms on a page. */
export const DEEP_LINK_PLATFORMS: readonly Platform[] = ['android', 'ios', 'windows', 'macos', 'linux'];

/** `subscriptionUrl` is our plain link (`PUBLIC_URL/sub/<token>`, no trailing slash). */
export function deepLinkFor(app: VpnClientApp, subscriptionUrl: string, name: string): DeepLink {
  const url = `${subscriptionUrl.replace(/\/+$/, '')}${app.format}`;
  return { clientId: app.id, clientName: app.name, href: app.link(url, name) };
}

/** Every client's link for one platform, in the recommended order. */
export function deepLinksFor(platform: Platform, subscriptionUrl: string, name: string): DeepLink[] {
  return VPN_CLIENT_APPS.filter((app) => app.platforms.includes(platform)).map((app) => deepLinkFor(app, subscriptionUrl, name));
}

/** The platform a browser's User-Agent names, or null (then a page shows every platform alike). */
export function platformFromUserAgent(userAgent: string | undefined): Platform | null {
  const ua = userAgent ?? '';
  if (/android/i.test(ua)) return 'android';
  if (/iphone|ipad|ipod/i.test(ua)) return 'ios';
  if (/windows/i.test(ua)) return 'windows';
  if (/macintosh|mac os x/i.test(ua)) return 'macos';
  if (/linux|x11|cros/i.test(ua)) return 'linux';
  return null;
}
