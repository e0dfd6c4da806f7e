import { describe, expect, it, vi } from 'vitest';
import { clientsFor, createClientDetector, openDeepLink, type CommandRunner } from './vpn-clients.js';

/** A protocol lookup that knows `handlers` (scheme → app name) and records what it was asked. */
function lookupWith(handlers: Record<string, string>) {
  return vi.fn((url: string) => handlers[url.replace(/:\/\/$/, '')] ?? '');
}

/** An `xdg-mime` stand-in: `x-scheme-handler/<scheme>` → desktop file name. */
function xdgMimeWith(defaults: Record<string, string>) {
  return vi.fn<CommandRunner>(async (file, args) => {
    expect(file).toBe('xdg-mime');
    const [query, kind, mime] = args;
    expect([query, kind]).toEqual(['query', 'default']);
    const scheme = mime?.replace(/^x-scheme-handler\//, '') ?? '';
    return defaults[scheme] ? `${defaults[scheme]}\n` : '\n';
  });
}

describe('VPN client detection', () => {
  it('checks only the clients of this OS, each by its own scheme', () => {
    expect(clientsFor('darwin').map((c) => c.scheme)).toEqual([
      'hiddify',
      'streisand',
      'clash-verge',
      'sing-box',
      'happ',
      'v2raytun',
      'shadowrocket',
      'karing',
      'mihomo',
      'flclash',
    ]);
    expect(clientsFor('win32').map((c) => c.scheme)).toEqual(['hiddify', 'clash-verge', 'happ', 'v2raytun', 'karing', 'mihomo', 'flclash']);
    expect(clientsFor('linux').map((c) => c.scheme)).toEqual(['hiddify', 'clash-verge', 'karing', 'mihomo', 'flclash']);
    expect(clientsFor('aix')).toEqual([]);
  });

  it('macOS: asks LaunchServices through getApplicationNameForProtocol, never xdg-mime', async () => {
    const lookup = lookupWith({ hiddify: 'Hiddify', 'sing-box': 'SFM' });
    const run = xdgMimeWith({ karing: 'karing.desktop' });
    const detector = createClientDetector({ lookupProtocol: lookup, platform: 'darwin', runCommand: run });

    expect(await detector.detectClients()).toEqual(['hiddify', 'sing-box']);
    expect(lookup).toHaveBeenCalledWith('hiddify://');
    expect(lookup).toHaveBeenCalledWith('sing-box://');
    expect(run).not.toHaveBeenCalled();
  });

  it('Windows: asks the registry through getApplicationNameForProtocol, never xdg-mime', async () => {
    const lookup = lookupWith({ 'clash-verge': 'Clash Verge', happ: 'Happ' });
    const run = xdgMimeWith({ hiddify: 'hiddify.desktop' });
    const detector = createClientDetector({ lookupProtocol: lookup, platform: 'win32', runCommand: run });

    expect(await detector.detectClients()).toEqual(['clash-verge', 'happ']);
    expect(lookup.mock.calls.map(([url]) => url).sort()).toEqual([
      'clash-verge://',
      'flclash://',
      'happ://',
      'hiddify://',
      'karing://',
      'mihomo://',
      'v2raytun://',
    ]);
    expect(run).not.toHaveBeenCalled();
  });

  it('Linux: falls back to xdg-mime when Electron finds no handler', async () => {
    const lookup = lookupWith({ 'clash-verge': 'Clash Verge' });
    const run = xdgMimeWith({ hiddify: 'hiddify.desktop', mihomo: 'mihomo-party.desktop' });
    const detector = createClientDetector({ lookupProtocol: lookup, platform: 'linux', runCommand: run });

    expect(await detector.detectClients()).toEqual(['hiddify', 'clash-verge', 'mihomo-party']);
    const asked = run.mock.calls.map(([, args]) => args[2]).sort();
    expect(asked).toEqual(['x-scheme-handler/flclash', 'x-scheme-handler/hiddify', 'x-scheme-handler/karing', 'x-scheme-handler/mihomo']);
    expect(run.mock.calls.every(([, , options]) => options.timeoutMs > 0 && options.timeoutMs <= 5000)).toBe(true);
  });

  it('Linux: an xdg-mime that is missing, fails or times out means not installed', async () => {
    const run = vi.fn<CommandRunner>(async () => {
      throw Object.assign(new Error('spawn xdg-mime ENOENT'), { code: 'ENOENT' });
    });
    const detector = createClientDetector({ lookupProtocol: () => '', platform: 'linux', runCommand: run });
    expect(await detector.detectClients()).toEqual([]);
  });

  it.each([['darwin' as const], ['win32' as const], ['linux' as const]])('%s: nothing installed → []', async (platform) => {
    const detector = createClientDetector({ lookupProtocol: () => '', platform, runCommand: xdgMimeWith({}) });
    expect(await detector.detectClients()).toEqual([]);
  });

  it('treats a lookup that throws as no handler', async () => {
    const detector = createClientDetector({
      lookupProtocol: () => {
        throw new Error('boom');
      },
      platform: 'darwin',
    });
    expect(await detector.detectClients()).toEqual([]);
  });

  it('reuses a result for a short while, then looks again', async () => {
    let now = 1_000_000;
    const handlers: Record<string, string> = {};
    const lookup = lookupWith(handlers);
    const detector = createClientDetector({ lookupProtocol: lookup, platform: 'win32', cacheMs: 10_000, now: () => now });

    expect(await detector.detectClients()).toEqual([]);
    handlers.hiddify = 'Hiddify';
    const calls = lookup.mock.calls.length;
    now += 5_000;
    expect(await detector.detectClients()).toEqual([]);
    expect(lookup.mock.calls.length).toBe(calls);
    now += 5_000;
    expect(await detector.detectClients()).toEqual(['hiddify']);
  });
});

describe('openDeepLink', () => {
  const link = 'hiddify://import/https://vpn.example.com/sub/abc123#Lumen%20VPN';

  function setup(platform: NodeJS.Platform, handlers: Record<string, string>, xdg: Record<string, string> = {}) {
    const lookup = lookupWith(handlers);
    const detector = createClientDetector({ lookupProtocol: lookup, platform, runCommand: xdgMimeWith(xdg), cacheMs: 60_000 });
    const openExternal = vi.fn(async (_url: string) => {});
    return { detector, lookup, openExternal };
  }

  it('opens a known client’s link when its scheme has a handler', async () => {
    const { detector, openExternal } = setup('win32', { hiddify: 'Hiddify' });
    expect(await openDeepLink(link, { detector, openExternal })).toEqual({ opened: true });
    expect(openExternal).toHaveBeenCalledWith(link);
  });

  it('opens on Linux when only xdg-mime knows the handler', async () => {
    const { detector, openExternal } = setup('linux', {}, { hiddify: 'hiddify.desktop' });
    expect(await openDeepLink(link, { detector, openExternal })).toEqual({ opened: true });
  });

  it.each([['darwin' as const], ['win32' as const], ['linux' as const]])('%s: never opens a scheme that has no handler', async (platform) => {
    const { detector, openExternal } = setup(platform, {});
    expect(await openDeepLink(link, { detector, openExternal })).toEqual({ opened: false });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('checks the handler now, not from the detection cache', async () => {
    const handlers: Record<string, string> = { hiddify: 'Hiddify' };
    const { detector, openExternal } = setup('darwin', handlers);
    expect(await detector.detectClients()).toContain('hiddify');
    delete handlers.hiddify; // uninstalled meanwhile
    expect(await openDeepLink(link, { detector, openExternal })).toEqual({ opened: false });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['https:', 'https://vpn.example.com/'],
    ['a scheme no client of ours uses', 'ms-settings://network'],
    ['the contested clash://', 'clash://install-config?url=https%3A%2F%2Fvpn.example.com'],
    ['a client of another OS (v2rayNG is Android only)', 'v2rayng://install-sub?url=https%3A%2F%2Fvpn.example.com'],
    ['no //', 'hiddify:import'],
    ['control characters', 'hiddify://import/x\n'],
    ['an oversized link', `hiddify://import/${'a'.repeat(9000)}`],
  ])('does not open %s, even with a handler for it', async (_what, bad) => {
    const everything = { hiddify: 'Hiddify', javascript: 'x', file: 'x', https: 'x', 'ms-settings': 'x', clash: 'x', v2rayng: 'x' };
    const { detector, openExternal } = setup('win32', everything);
    expect(await openDeepLink(bad, { detector, openExternal })).toEqual({ opened: false });
    expect(openExternal).not.toHaveBeenCalled();
  });
});
