import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_CHANNELS } from '../../shared/platform-bridge.js';
import { FakeWebContents } from './testing/fake-web-contents.js';

const electron = vi.hoisted(() => ({ windows: [] as unknown[] }));

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const { FakeWebContents: Contents } = await import('./testing/fake-web-contents.js');
  class BrowserWindow extends Emitter {
    webContents = new Contents();
    loadedUrl: string | null = null;
    shown = false;
    constructor(readonly options: BrowserWindowConstructorOptions) {
      super();
      electron.windows.push(this);
    }
    async loadURL(url: string) {
      this.loadedUrl = url;
      this.webContents.url = url;
    }
    show() {
      this.shown = true;
    }
  }
  return { BrowserWindow };
});

const { createMainWindow, mainWindowOptions } = await import('./window.js');

interface CreatedWindow extends EventEmitter {
  options: BrowserWindowConstructorOptions;
  webContents: FakeWebContents;
  loadedUrl: string | null;
  shown: boolean;
}

const LOCATION = {
  rendererUrl: 'file:///opt/lumen/resources/app.asar/out/renderer/index.html',
  preloadPath: '/opt/lumen/resources/app.asar/out/preload/index.cjs',
};

describe('main window', () => {
  const openExternal = vi.fn(async (_url: string) => {});
  let window: CreatedWindow;

  beforeEach(() => {
    electron.windows.length = 0;
    openExternal.mockClear();
    createMainWindow(LOCATION, { openExternal });
    window = electron.windows[0] as CreatedWindow;
  });

  it('is created with exactly these security options and our CommonJS preload', () => {
    expect(electron.windows).toHaveLength(1);
    expect(window.options.webPreferences).toEqual({
      preload: '/opt/lumen/resources/app.asar/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    });
    expect(window.options).toEqual(mainWindowOptions(LOCATION.preloadPath));
    expect(window.options.title).toBe('Lumen VPN');
  });

  it('loads our renderer and shows itself when ready', () => {
    expect(window.loadedUrl).toBe(LOCATION.rendererUrl);
    expect(window.shown).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
  });

  it('tells the renderer when it gains focus', () => {
    window.emit('focus');
    window.emit('focus');
    expect(window.webContents.sent).toEqual([[BRIDGE_CHANNELS.focus], [BRIDGE_CHANNELS.focus]]);
  });

  it('locks navigation and permissions on its web contents', () => {
    expect(window.webContents.navigate('will-navigate', 'https://vpn.example.com/')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://vpn.example.com/');
    expect(window.webContents.open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(window.webContents.session.permissionRequestHandler).toEqual(expect.any(Function));
    expect(window.webContents.session.permissionCheckHandler).toEqual(expect.any(Function));
  });
});
