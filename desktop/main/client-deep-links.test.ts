import { describe, expect, it, vi } from 'vitest';
import { deepLinkFor, VPN_CLIENT_APPS } from '../../shared/deep-links.js';
import { createClientDetector, openDeepLink } from './vpn-clients.js';

/**
 * Every client of clients.md ("Deep links"), with the link written out by hand from that table for
 * the subscription `https://vpn.example.com/sub/abc123` and the profile name `Lumen VPN`: the URL
 * percent-encoded in `url=` and `url=` last; sing-box gets the `/sing-box` URL, the mihomo-based
 * clients (Clash Verge Rev, Mihomo Party, FlClash) the `/clash-meta` one.
 */
const SUBSCRIPTION = 'https://vpn.example.com/sub/abc123';
const NAME = 'Lumen VPN';

const EXPECTED: Array<{ name: string; href: string }> = [
  { name: 'Hiddify', href: 'hiddify://import/https://vpn.example.com/sub/abc123#Lumen%20VPN' },
  {
    name: 'Clash Verge Rev',
    href: 'clash-verge://install-config?name=Lumen%20VPN&url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123%2Fclash-meta',
  },
  {
    name: 'Mihomo Party',
    href: 'mihomo://install-config?name=Lumen%20VPN&url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123%2Fclash-meta',
  },
  { name: 'FlClash', href: 'flclash://install-config?url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123%2Fclash-meta' },
  { name: 'Karing', href: 'karing://install-config?name=Lumen%20VPN&url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123' },
  { name: 'sing-box', href: 'sing-box://import-remote-profile?url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123%2Fsing-box#Lumen%20VPN' },
  { name: 'v2rayNG', href: 'v2rayng://install-config?url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123#Lumen%20VPN' },
  { name: 'NekoBox', href: 'sn://subscription?name=Lumen%20VPN&url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123' },
  { name: 'Happ', href: 'happ://add/https://vpn.example.com/sub/abc123' },
  { name: 'v2RayTun', href: 'v2raytun://import/https://vpn.example.com/sub/abc123' },
  { name: 'INCY', href: 'incy://add/https://vpn.example.com/sub/abc123' },
  { name: 'Streisand', href: 'streisand://import/https://vpn.example.com/sub/abc123#Lumen%20VPN' },
  { name: 'V2Box', href: 'v2box://install-sub?name=Lumen%20VPN&url=https%3A%2F%2Fvpn.example.com%2Fsub%2Fabc123' },
  { name: 'Shadowrocket', href: 'shadowrocket://add/https://vpn.example.com/sub/abc123#Lumen%20VPN' },
];

const DESKTOP_OS = { macos: 'darwin', windows: 'win32', linux: 'linux' } as const;

describe('deep links for every client in clients.md', () => {
  it('the shared list has exactly the clients of clients.md that have a link handler', () => {
    expect(VPN_CLIENT_APPS.map((app) => app.name).sort()).toEqual(EXPECTED.map((client) => client.name).sort());
  });

  it.each(EXPECTED)('$name: $href', ({ name, href }) => {
    const app = VPN_CLIENT_APPS.find((candidate) => candidate.name === name);
    expect(app).toBeDefined();
    expect(deepLinkFor(app!, SUBSCRIPTION, NAME).href).toBe(href);
    expect(deepLinkFor(app!, `${SUBSCRIPTION}/`, NAME).href).toBe(href);
  });

  it.each(EXPECTED)('$name: the desktop app opens its link on each desktop OS it runs on, and only there', async ({ name, href }) => {
    const app = VPN_CLIENT_APPS.find((candidate) => candidate.name === name)!;
    for (const [os, platform] of Object.entries(DESKTOP_OS)) {
      // Every scheme has a handler here: only the client's platforms decide.
      const detector = createClientDetector({ lookupProtocol: () => 'Some App', platform });
      const openExternal = vi.fn(async (_url: string) => {});
      const expected = app.platforms.includes(os as keyof typeof DESKTOP_OS);
      expect(await openDeepLink(href, { detector, openExternal }), `${name} on ${os}`).toEqual({ opened: expected });
      expect(openExternal.mock.calls).toEqual(expected ? [[href]] : []);
    }
  });
});
