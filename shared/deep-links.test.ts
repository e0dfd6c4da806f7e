import { describe, expect, it } from 'vitest';
import { CLIENT_APPS, buildDeepLinks, clientsForPlatform, type ClientAppId } from './deep-links.js';
import { PLATFORMS } from './platforms.js';

const SUB_URL = 'https://vpn.example.com/sub/abc123';
const ENCODED_URL = 'https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123';
const NAME = 'My VPN';

function hrefOf(id: ClientAppId, url = SUB_URL, name = NAME): string {
  const link = buildDeepLinks(url, name).find((entry) => entry.id === id);
  if (!link) throw new Error(`no link for ${id}`);
  return link.href;
}

describe('buildDeepLinks', () => {
  it.each<[ClientAppId, string]>([
    ['hiddify', `hiddify://import/${SUB_URL}#My%20VPN`],
    ['v2rayng', `v2rayng://install-sub?url=${ENCODED_URL}#My%20VPN`],
    ['streisand', `streisand://import/${SUB_URL}#My%20VPN`],
    ['shadowrocket', `shadowrocket://add/${SUB_URL}#My%20VPN`],
    ['happ', `happ://add/${SUB_URL}`],
    ['v2box', `v2box://install-sub?name=My%20VPN&url=${ENCODED_URL}`],
    ['karing', `karing://install-config?name=My%20VPN&url=${ENCODED_URL}`],
    ['sing-box', `sing-box://import-remote-profile?url=${ENCODED_URL}#My%20VPN`],
    ['clash-verge', `clash-verge://install-config?name=My%20VPN&url=${ENCODED_URL}`],
    ['mihomo-party', `mihomo://install-config?name=My%20VPN&url=${ENCODED_URL}`],
    ['flclash', `flclash://install-config?url=${ENCODED_URL}`],
    ['nekobox', `sn://subscription?name=My%20VPN&url=${ENCODED_URL}`],
  ])('builds the %s link', (id, expected) => {
    expect(hrefOf(id)).toBe(expected);
  });

  it('returns one link per client, in the recommended order, with its name and platforms', () => {
    const links = buildDeepLinks(SUB_URL, NAME);
    expect(links.map((link) => link.id)).toEqual(CLIENT_APPS.map((app) => app.id));
    expect(links[0]).toMatchObject({ id: 'hiddify', name: 'Hiddify', platforms: ['android', 'ios', 'macos', 'windows', 'linux'] });
  });

  it('percent-encodes a SUB_URL with its own query so it cannot leak into the deep link query', () => {
    const url = 'https://vpn.example.com/sub/abc?format=clash&x=1#frag';
    const href = hrefOf('clash-verge', url);
    expect(href).toBe(
      'clash-verge://install-config?name=My%20VPN&url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc%3Fformat%3Dclash%26x%3D1%23frag',
    );
    expect(new URL(href).searchParams.get('url')).toBe(url);
    expect(new URL(href).searchParams.get('name')).toBe(NAME);
  });

  it('puts url= last in every query-style link', () => {
    for (const { href } of buildDeepLinks(SUB_URL, NAME)) {
      const query = href.split('#')[0]?.split('?')[1];
      if (query === undefined) continue;
      expect(query.startsWith('url=') || query.includes('&url=')).toBe(true);
      expect(query.slice(query.indexOf('url=') + 4)).toBe(ENCODED_URL);
    }
  });

  it('puts the raw SUB_URL in the path for path-style clients', () => {
    const url = 'https://vpn.example.com/sub/abc?x=1&y=2';
    expect(hrefOf('hiddify', url)).toBe('hiddify://import/https://vpn.example.com/sub/abc?x=1&y=2#My%20VPN');
    expect(hrefOf('happ', url)).toBe('happ://add/https://vpn.example.com/sub/abc?x=1&y=2');
  });

  it('percent-encodes the profile name in the fragment and in the query', () => {
    const name = 'Ünïcode & #1 / 50%';
    const encoded = '%C3%9Cn%C3%AFcode%20%26%20%231%20%2F%2050%25';
    expect(hrefOf('hiddify', SUB_URL, name)).toBe(`hiddify://import/${SUB_URL}#${encoded}`);
    expect(hrefOf('karing', SUB_URL, name)).toBe(`karing://install-config?name=${encoded}&url=${ENCODED_URL}`);
  });
});

describe('clientsForPlatform', () => {
  it.each([
    ['ios', ['hiddify', 'streisand', 'shadowrocket', 'happ', 'v2box', 'karing', 'sing-box']],
    ['android', ['hiddify', 'v2rayng', 'happ', 'v2box', 'karing', 'sing-box', 'flclash', 'nekobox']],
    ['windows', ['hiddify', 'happ', 'karing', 'clash-verge', 'mihomo-party', 'flclash']],
    ['macos', ['hiddify', 'streisand', 'shadowrocket', 'happ', 'karing', 'sing-box', 'clash-verge', 'mihomo-party', 'flclash']],
    ['linux', ['hiddify', 'karing', 'clash-verge', 'mihomo-party', 'flclash']],
  ] as const)('lists the %s clients, Hiddify first', (platform, expected) => {
    expect(clientsForPlatform(platform).map((app) => app.id)).toEqual(expected);
  });

  it('offers at least one client on every platform', () => {
    for (const platform of PLATFORMS) expect(clientsForPlatform(platform).length).toBeGreaterThan(0);
  });
});
