import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCALE } from '../../shared/locales.js';

/**
 * Finding English left behind on a translated page: any word of the English catalogues of the public
 * site that is not a name (of a platform, app, protocol, standard). Used by the every-page test
 * (server/src/site-languages.test.ts) and the browser tests of the signed-in screens (e2e/languages.spec.ts).
 */
const CATALOGUES = join(import.meta.dirname, '..', '..', 'web', 'src', 'i18n', 'messages');
/** Namespaces of screens only signed-in admins see: not on any public page. */
const ADMIN_NAMESPACES = new Set(['admin.json', 'adminSettings.json']);

/**
 * Words that stay in Latin letters in every language: names of the product's parts, platforms, apps,
 * protocols and standards. Any other word of the English catalogues found on a translated page is
 * English left behind.
 */
const NAMES = new Set(
  [
    'vpn',
    'windows',
    'macos',
    'linux',
    'android',
    'ios',
    'iphone',
    'ipad',
    'mac',
    'hiddify',
    'v2rayng',
    'v2rayn',
    'clash',
    'verge',
    'rev',
    'sing',
    'box',
    'streisand',
    'foxray',
    'shadowrocket',
    'nekoray',
    'nekobox',
    'karing',
    'happ',
    'v2box',
    'marzneshin',
    'marzban',
    'stripe',
    'btcpay',
    'telegram',
    'json',
    'server',
    'gdpr',
    'vless',
    'vmess',
    'trojan',
    'shadowsocks',
    'reality',
    'xray',
    'wireguard',
    'github',
    'google',
    'play',
    'app',
    'store',
    'apple',
    'microsoft',
    'chrome',
    'firefox',
    'safari',
    'edge',
    'gbps',
    'ms',
    'qr',
    'url',
    'ip',
    'dns',
    'https',
    'http',
    'tls',
    'otp',
    'id',
    'faq',
    'sub',
    'bitcoin',
    'lightning',
    'usdt',
    'eth',
    'ethereum',
    'btc',
    'cookie',
    'cookies',
    'json',
    'yaml',
    'uri',
    'apk',
    'dmg',
    'exe',
    'deb',
    'rpm',
    'appimage',
    'flathub',
    'testflight',
    'homebrew',
    'winget',
    'scoop',
    'lumen',
    'unlimited',
    'gb',
    'mb',
    'tb',
    'usd',
    'eu',
    'uk',
    'us',
    // The spec's tier names, which the feature pages name.
    'basic',
    'plus',
    'complete',
    'httponly',
    'samesite',
    'lax',
    'strict',
    'auth',
    'silicon',
    'big',
    'sur',
    'msix',
    'ubuntu',
    'debian',
    'fedora',
    'arch',
    'mint',
    'english',
    'rayng',
    'rayn',
    'tun',
    'wi-fi',
    'wifi',
    'sing-box',
    'clash-verge',
    'mihomo',
    'meta',
    'ssl',
    'ipv4',
    'ipv6',
    'webrtc',
    'isp',
    'aes',
    'chacha20',
    'sha',
    'hmac',
    'api',
    'e-mail',
    'email',
  ].map((word) => word.toLowerCase()),
);

/** Every word of the English catalogues of the customer's screens (not names, not one-letter). */
export function englishVocabulary(): Set<string> {
  const words = new Set<string>();
  for (const file of readdirSync(join(CATALOGUES, DEFAULT_LOCALE))) {
    if (ADMIN_NAMESPACES.has(file)) continue;
    const messages = JSON.parse(readFileSync(join(CATALOGUES, DEFAULT_LOCALE, file), 'utf8')) as Record<string, string>;
    for (const message of Object.values(messages)) {
      const text = message.replace(/\{[^{}]*\}/g, ' ').replace(/<\/?\d+>/g, ' ');
      for (const word of text.toLowerCase().match(/[a-z][a-z'’-]*[a-z]/g) ?? []) if (!NAMES.has(word)) words.add(word);
    }
  }
  return words;
}

/** The text a reader sees (and hears: labels and alternative texts), without code, addresses and e-mails. */
export function readableText(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html;
  return body
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<(code|kbd|pre)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/\s(?:aria-label|alt|title|placeholder)="([^"]*)"/g, ' >$1< ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\S+@\S+/g, ' ')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/\S+\.(?:com|org|io|net|dev)\b\S*/g, ' ');
}

export function englishLeftIn(html: string, vocabulary: Set<string>, allowed: Set<string>): string[] {
  // Identifiers (panel user names like user_9l5hbie7, codes) are data, not words.
  const text = readableText(html).replace(/\S*[_\d]\S*/g, ' ');
  const words = text.toLowerCase().match(/[a-z][a-z'’-]*[a-z]/g) ?? [];
  return [...new Set(words.filter((word) => vocabulary.has(word) && !allowed.has(word)))];
}
