import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_CHANNELS } from '../../shared/platform-bridge.js';
import type { BridgeHandlers } from './bridge-handlers.js';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;
const ipc = vi.hoisted(() => ({ handlers: new Map<string, Handler>() }));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => ipc.handlers.set(channel, handler),
    removeHandler: (channel: string) => ipc.handlers.delete(channel),
  },
}));

const { INVOKE_CHANNELS, isTrustedSender, registerBridgeHandlers } = await import('./ipc.js');

const RENDERER_URL = 'file:///opt/Lumen%20VPN/resources/app.asar/out/renderer/index.html';

interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
}

/** Our window: webContents 7 with its main frame showing the renderer. */
function fakeWindow(options: { destroyed?: boolean } = {}) {
  const mainFrame: FakeFrame = { url: `${RENDERER_URL}#/accounts`, parent: null };
  const window = { isDestroyed: () => options.destroyed ?? false, webContents: { id: 7, mainFrame } };
  return { window: window as unknown as BrowserWindow, mainFrame };
}

const eventFrom = (senderId: number, frame: FakeFrame | null) => ({ sender: { id: senderId }, senderFrame: frame }) as unknown as IpcMainInvokeEvent;

function fakeHandlers() {
  return {
    request: vi.fn(async () => ({ status: 200, body: '{}' })),
    getServerUrl: vi.fn(async () => 'https://vpn.example.com'),
    setServerUrl: vi.fn(async (url: string) => ({ ok: true as const, serverUrl: url })),
    detectClients: vi.fn(async () => ['hiddify']),
    openDeepLink: vi.fn(async () => ({ opened: true })),
    openExternal: vi.fn(async () => ({ opened: true })),
    getUpdateStatus: vi.fn(async () => ({ ready: true as const, version: '1.3.0' })),
    restartToUpdate: vi.fn(async () => ({ restarting: true })),
  } satisfies BridgeHandlers;
}

describe('IPC handlers', () => {
  let handlers: ReturnType<typeof fakeHandlers>;
  let ours: ReturnType<typeof fakeWindow>;
  const invoke = (channel: string, event: IpcMainInvokeEvent, ...args: unknown[]) => {
    const handler = ipc.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, ...args);
  };
  const fromRenderer = () => eventFrom(7, ours.mainFrame);
  const nothingWasCalled = () => Object.values(handlers).forEach((fn) => expect(fn).not.toHaveBeenCalled());

  beforeEach(() => {
    ipc.handlers.clear();
    handlers = fakeHandlers();
    ours = fakeWindow();
    registerBridgeHandlers(handlers, (event) => isTrustedSender(event, ours.window, RENDERER_URL));
  });

  it('registers one handler per invoke channel of the contract (focus and updateReady go main → renderer)', () => {
    const { focus: _focus, updateReady: _updateReady, ...invokeChannels } = BRIDGE_CHANNELS;
    expect([...ipc.handlers.keys()].sort()).toEqual(Object.values(invokeChannels).sort());
    expect(INVOKE_CHANNELS.sort()).toEqual(Object.values(invokeChannels).sort());
  });

  describe('accepts good calls from our page', () => {
    it.each([
      [{ method: 'GET', path: '/api/me' }],
      [{ method: 'GET', path: '/api/accounts?status=active&page=2' }],
      [{ method: 'POST', path: '/api/auth/verify', body: { email: 'a@example.com', code: '123456' } }],
      [{ method: 'PATCH', path: '/api/accounts/acc_1', body: { name: 'Laptop', tags: ['x', 1, null, true] } }],
      [{ method: 'DELETE', path: '/api/accounts/acc_1' }],
      [{ method: 'GET', path: '/api/auth/session' }],
    ])('request %j', async (call) => {
      await expect(invoke(BRIDGE_CHANNELS.request, fromRenderer(), call)).resolves.toEqual({ status: 200, body: '{}' });
      expect(handlers.request).toHaveBeenCalledWith(call);
    });

    it('the other methods', async () => {
      const event = fromRenderer();
      expect(await invoke(BRIDGE_CHANNELS.getServerUrl, event)).toBe('https://vpn.example.com');
      expect(await invoke(BRIDGE_CHANNELS.setServerUrl, event, 'https://vpn.other.example')).toEqual({ ok: true, serverUrl: 'https://vpn.other.example' });
      expect(await invoke(BRIDGE_CHANNELS.detectClients, event)).toEqual(['hiddify']);
      expect(await invoke(BRIDGE_CHANNELS.openDeepLink, event, 'hiddify://import/https://vpn.example.com/sub/abc#Lumen')).toEqual({ opened: true });
      expect(await invoke(BRIDGE_CHANNELS.openExternal, event, 'https://vpn.example.com/dashboard')).toEqual({ opened: true });
      expect(handlers.setServerUrl).toHaveBeenCalledWith('https://vpn.other.example');
      expect(handlers.openDeepLink).toHaveBeenCalledWith('hiddify://import/https://vpn.example.com/sub/abc#Lumen');
      expect(handlers.openExternal).toHaveBeenCalledWith('https://vpn.example.com/dashboard');
      expect(await invoke(BRIDGE_CHANNELS.getUpdateStatus, event)).toEqual({ ready: true, version: '1.3.0' });
      expect(await invoke(BRIDGE_CHANNELS.restartToUpdate, event)).toEqual({ restarting: true });
    });
  });

  describe('refuses bad arguments and does nothing', () => {
    const long = (n: number) => 'a'.repeat(n);
    it.each([
      ['no argument', BRIDGE_CHANNELS.request, []],
      ['a string instead of a call', BRIDGE_CHANNELS.request, ['/api/me']],
      ['null', BRIDGE_CHANNELS.request, [null]],
      ['a missing method', BRIDGE_CHANNELS.request, [{ path: '/api/me' }]],
      ['a missing path', BRIDGE_CHANNELS.request, [{ method: 'GET' }]],
      ['an unknown method', BRIDGE_CHANNELS.request, [{ method: 'TRACE', path: '/api/me' }]],
      ['a lower-case method', BRIDGE_CHANNELS.request, [{ method: 'get', path: '/api/me' }]],
      ['a number as path', BRIDGE_CHANNELS.request, [{ method: 'GET', path: 42 }]],
      ['an extra field', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/me', headers: { authorization: 'x' } }]],
      ['a protocol-relative path', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '//evil.com/x' }]],
      ['a full URL', BRIDGE_CHANNELS.request, [{ method: 'GET', path: 'https://evil.com/api/me' }]],
      ['a dot-dot path', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/../x' }]],
      ['an encoded dot-dot path', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/%2e%2e/admin/users' }]],
      ['a double slash inside', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api//admin/users' }]],
      ['a backslash', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/\\evil' }]],
      ['a fragment', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/me#x' }]],
      ['a space', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/me x' }]],
      ['a non-API path', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/sub/abc123' }]],
      ['the admin API', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/admin/users' }]],
      ['the admin API in capitals', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/API/ADMIN/users' }]],
      ['an oversized path', BRIDGE_CHANNELS.request, [{ method: 'GET', path: `/api/${long(3000)}` }]],
      ['a body on a GET', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/me', body: { x: 1 } }]],
      ['a body that is not JSON', BRIDGE_CHANNELS.request, [{ method: 'POST', path: '/api/x', body: { when: new Map([[1, 2]]) } }]],
      ['an oversized body', BRIDGE_CHANNELS.request, [{ method: 'POST', path: '/api/x', body: { text: long(70_000) } }]],
      ['two arguments', BRIDGE_CHANNELS.request, [{ method: 'GET', path: '/api/me' }, 'extra']],
      ['an argument to getServerUrl', BRIDGE_CHANNELS.getServerUrl, ['x']],
      ['an argument to detectClients', BRIDGE_CHANNELS.detectClients, [{}]],
      ['a number as server URL', BRIDGE_CHANNELS.setServerUrl, [443]],
      ['no server URL', BRIDGE_CHANNELS.setServerUrl, []],
      ['an oversized server URL', BRIDGE_CHANNELS.setServerUrl, [`https://${long(3000)}.example`]],
      ['an object as deep link', BRIDGE_CHANNELS.openDeepLink, [{ href: 'hiddify://x' }]],
      ['an oversized deep link', BRIDGE_CHANNELS.openDeepLink, [`hiddify://import/${long(9000)}`]],
      ['an array as external URL', BRIDGE_CHANNELS.openExternal, [['https://example.com']]],
      ['an oversized external URL', BRIDGE_CHANNELS.openExternal, [`https://example.com/${long(3000)}`]],
      ['an argument to getUpdateStatus', BRIDGE_CHANNELS.getUpdateStatus, ['x']],
      ['an argument to restartToUpdate', BRIDGE_CHANNELS.restartToUpdate, [true]],
    ])('%s', async (_what, channel, args) => {
      await expect(invoke(channel, fromRenderer(), ...args)).rejects.toThrow(new RegExp(`^Refused ${channel}: `));
      nothingWasCalled();
    });
  });

  describe('refuses calls that do not come from our page, and does nothing', () => {
    it.each([
      ['another page in our window', () => eventFrom(7, { url: 'https://evil.example/', parent: null })],
      ['another file', () => eventFrom(7, { url: 'file:///tmp/evil.html', parent: null })],
      ['a frame inside our page', () => eventFrom(7, { url: RENDERER_URL, parent: ours.mainFrame })],
      ['another web contents', () => eventFrom(8, ours.mainFrame)],
      ['a frame that is gone', () => eventFrom(7, null)],
      [
        'a frame that throws when read',
        () =>
          eventFrom(
            7,
            Object.defineProperty({ parent: null }, 'url', {
              get: () => {
                throw new Error('Render frame was disposed');
              },
            }) as FakeFrame,
          ),
      ],
    ])('%s', async (_what, makeEvent) => {
      for (const channel of INVOKE_CHANNELS) {
        await expect(invoke(channel, makeEvent(), { method: 'GET', path: '/api/me' })).rejects.toThrow(/^Refused .*did not come from the app's own page/);
      }
      nothingWasCalled();
    });

    it('after the window is closed', async () => {
      ours = fakeWindow({ destroyed: true });
      await expect(invoke(BRIDGE_CHANNELS.getServerUrl, fromRenderer())).rejects.toThrow(/Refused/);
      nothingWasCalled();
    });
  });

  it('trusts the dev server by origin', () => {
    const devFrame = { url: 'http://localhost:5173/#/accounts', parent: null };
    expect(isTrustedSender(eventFrom(7, devFrame), ours.window, 'http://localhost:5173/')).toBe(true);
    expect(isTrustedSender(eventFrom(7, { url: 'http://localhost:5174/', parent: null }), ours.window, 'http://localhost:5173/')).toBe(false);
  });

  it('unregisters every channel', () => {
    const unregister = registerBridgeHandlers(handlers, () => true);
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });
});
