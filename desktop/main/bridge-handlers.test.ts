import { describe, expect, it, vi } from 'vitest';
import type { ApiSession } from './api-session.js';
import { createBridgeHandlers } from './bridge-handlers.js';
import type { SessionStore } from './session-store.js';
import type { ClientDetector } from './vpn-clients.js';

function setup(options: { installedSchemes?: string[] } = {}) {
  let serverUrl = 'https://vpn.example.com';
  const store = {
    getServerUrl: vi.fn(async () => serverUrl),
    setServerUrl: vi.fn(async (url: string) => {
      serverUrl = url;
    }),
  } as unknown as SessionStore;
  const session = { request: vi.fn(), signOut: vi.fn(async () => {}) } satisfies ApiSession;
  const installed = new Set(options.installedSchemes ?? ['hiddify']);
  const detector: ClientDetector = {
    detectClients: vi.fn(async () => ['hiddify']),
    canOpenScheme: vi.fn(async (scheme: string) => installed.has(scheme)),
  };
  const openExternal = vi.fn(async (_url: string) => {});
  const updates = { getStatus: vi.fn(async () => ({ ready: false as const })), restartToUpdate: vi.fn(async () => ({ restarting: false })) };
  const handlers = createBridgeHandlers({ session, store, detector, openExternal, updates });
  return { handlers, store, session, openExternal, updates };
}

describe('bridge handlers', () => {
  describe('setServerUrl', () => {
    it.each([
      ['not a URL', 'vpn example com'],
      ['empty', '   '],
      ['javascript:', 'javascript:alert(1)'],
      ['file:', 'file:///etc/passwd'],
      ['plain http to another host', 'http://vpn.example.net'],
      ['credentials', 'https://user:pass@vpn.example.net'],
      ['a path', 'https://vpn.example.net/api'],
    ])('answers ok: false for %s and changes nothing', async (_what, url) => {
      const { handlers, store, session } = setup();
      const result = await handlers.setServerUrl(url);
      expect(result).toEqual({ ok: false, message: expect.any(String) });
      expect(store.setServerUrl).not.toHaveBeenCalled();
      expect(session.signOut).not.toHaveBeenCalled();
    });

    it('signs out of the previous server, then saves the new one (normalised)', async () => {
      const { handlers, store, session } = setup();
      const result = await handlers.setServerUrl('  https://VPN.Example.NET:443/  ');
      expect(result).toEqual({ ok: true, serverUrl: 'https://vpn.example.net' });
      expect(session.signOut).toHaveBeenCalledTimes(1);
      expect(store.setServerUrl).toHaveBeenCalledWith('https://vpn.example.net');
      expect(vi.mocked(session.signOut).mock.invocationCallOrder[0]).toBeLessThan(vi.mocked(store.setServerUrl).mock.invocationCallOrder[0]!);
      expect(await handlers.getServerUrl()).toBe('https://vpn.example.net');
    });

    it('keeps the session when the server stays the same', async () => {
      const { handlers, store, session } = setup();
      expect(await handlers.setServerUrl('https://vpn.example.com/')).toEqual({ ok: true, serverUrl: 'https://vpn.example.com' });
      expect(session.signOut).not.toHaveBeenCalled();
      expect(store.setServerUrl).not.toHaveBeenCalled();
    });
  });

  describe('openDeepLink', () => {
    it.each([
      ['javascript:', 'javascript:alert(document.cookie)'],
      ['file:', 'file:///etc/passwd'],
      ['https:', 'https://vpn.example.com/sub/abc123'],
      ['an unknown scheme', 'ms-settings://network'],
      ['the contested clash://', 'clash://install-config?url=https%3A%2F%2Fvpn.example.com'],
      ['a client that is not installed', 'karing://install-config?url=https%3A%2F%2Fvpn.example.com'],
      ['a link with a space', 'hiddify://import/https://vpn.example.com/sub/abc #x'],
    ])('does not open %s', async (_what, link) => {
      const { handlers, openExternal } = setup();
      expect(await handlers.openDeepLink(link)).toEqual({ opened: false });
      expect(openExternal).not.toHaveBeenCalled();
    });

    it('opens an installed client’s link as it is', async () => {
      const { handlers, openExternal } = setup();
      const link = 'hiddify://import/https://vpn.example.com/sub/abc123#Lumen%20VPN';
      expect(await handlers.openDeepLink(link)).toEqual({ opened: true });
      expect(openExternal).toHaveBeenCalledWith(link);
    });
  });

  describe('openExternal', () => {
    it.each([
      ['javascript:', 'javascript:alert(1)'],
      ['file:', 'file:///etc/passwd'],
      ['http to another host', 'http://vpn.example.com/dashboard'],
      ['a deep link', 'hiddify://import/https://vpn.example.com/sub/abc'],
      ['credentials', 'https://user:pass@vpn.example.com/'],
      ['not a URL', 'vpn.example.com/dashboard'],
    ])('does not open %s', async (_what, url) => {
      const { handlers, openExternal } = setup();
      expect(await handlers.openExternal(url)).toEqual({ opened: false });
      expect(openExternal).not.toHaveBeenCalled();
    });

    it.each([['https://vpn.example.com/dashboard'], ['http://localhost:3000/dashboard'], ['http://127.0.0.1:3000/'], ['http://[::1]:3000/']])(
      'opens %s in the system browser',
      async (url) => {
        const { handlers, openExternal } = setup();
        expect(await handlers.openExternal(url)).toEqual({ opened: true });
        expect(openExternal).toHaveBeenCalledWith(url);
      },
    );

    it('answers opened: false when the OS cannot open it', async () => {
      const { handlers, openExternal } = setup();
      openExternal.mockRejectedValueOnce(new Error('no browser'));
      expect(await handlers.openExternal('https://vpn.example.com/')).toEqual({ opened: false });
    });
  });

  it('answers the update status and restarts into an update through the app updates', async () => {
    const { handlers, updates } = setup();
    expect(await handlers.getUpdateStatus()).toEqual({ ready: false });
    expect(await handlers.restartToUpdate()).toEqual({ restarting: false });
    expect(updates.restartToUpdate).toHaveBeenCalledOnce();
  });
});
