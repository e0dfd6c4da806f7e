import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_CHANNELS } from '../../shared/platform-bridge.js';

type Listener = (...args: unknown[]) => void;

const electron = vi.hoisted(() => ({
  lock: true,
  appListeners: new Map<string, Listener[]>(),
  paths: new Map<string, string>(),
  calls: [] as string[],
  windows: [] as Array<{
    options: { webPreferences?: { preload?: string } };
    loadedUrl: string | null;
    minimized: boolean;
    calls: string[];
    emit(event: string): void;
  }>,
  handled: new Set<string>(),
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const on = (event: string, listener: Listener) => {
    electron.appListeners.set(event, [...(electron.appListeners.get(event) ?? []), listener]);
  };
  class BrowserWindow extends EventEmitter {
    loadedUrl: string | null = null;
    minimized = false;
    calls: string[] = [];
    webContents = Object.assign(new EventEmitter(), {
      id: 1,
      send: () => {},
      setWindowOpenHandler: () => {},
      session: { setPermissionRequestHandler: () => {}, setPermissionCheckHandler: () => {} },
    });
    constructor(readonly options: object) {
      super();
      electron.windows.push(this);
    }
    async loadURL(url: string) {
      this.loadedUrl = url;
    }
    isMinimized = () => this.minimized;
    restore = () => this.calls.push('restore');
    focus = () => this.calls.push('focus');
    show = () => this.calls.push('show');
  }
  return {
    BrowserWindow,
    app: {
      isPackaged: false,
      requestSingleInstanceLock: () => electron.lock,
      quit: () => electron.calls.push('quit'),
      exit: () => electron.calls.push('exit'),
      enableSandbox: () => electron.calls.push('enableSandbox'),
      setAppUserModelId: (id: string) => electron.calls.push(`setAppUserModelId ${id}`),
      whenReady: async () => {
        electron.calls.push('whenReady');
      },
      on,
      getPath: (name: string) => electron.paths.get(name) ?? '',
      setPath: (name: string, value: string) => electron.paths.set(name, value),
      getApplicationNameForProtocol: () => '',
    },
    shell: { openExternal: async () => {} },
    ipcMain: { handle: (channel: string) => electron.handled.add(channel), removeHandler: () => {} },
  };
});

const { startDesktopApp } = await import('./index.js');

describe('app lifecycle', () => {
  let appData: string;

  beforeEach(() => {
    appData = mkdtempSync(join(tmpdir(), 'desktop-app-data-'));
    electron.lock = true;
    electron.appListeners.clear();
    electron.paths.clear();
    electron.paths.set('appData', appData);
    electron.calls.length = 0;
    electron.windows.length = 0;
    electron.handled.clear();
  });
  afterEach(() => rmSync(appData, { recursive: true, force: true }));

  it('does not start by itself under test', () => {
    // Importing index.ts above ran nothing: no lock, no window.
    expect(electron.windows).toHaveLength(0);
  });

  it('quits at once when another instance holds the lock', async () => {
    electron.lock = false;
    await startDesktopApp();
    expect(electron.calls).toEqual(['quit']);
    expect(electron.windows).toHaveLength(0);
    expect(electron.handled.size).toBe(0);
  });

  it('opens one window on our renderer, with sandboxing on and the IPC handlers registered', async () => {
    await startDesktopApp();

    expect(electron.calls).toContain('enableSandbox');
    expect(electron.paths.get('userData')).toBe(join(appData, 'Lumen VPN'));
    const { focus: _focus, updateReady: _updateReady, ...invoke } = BRIDGE_CHANNELS;
    expect([...electron.handled].sort()).toEqual(Object.values(invoke).sort());
    expect(electron.windows).toHaveLength(1);
    const window = electron.windows[0]!;
    // Under vitest index.ts sits in desktop/main; built, it is out/main/index.js beside out/preload and out/renderer.
    const desktop = join(import.meta.dirname, '..');
    expect(window.options.webPreferences?.preload).toBe(join(desktop, 'preload', 'index.cjs'));
    expect(window.loadedUrl).toBe(pathToFileURL(join(desktop, 'renderer', 'index.html')).href);
  });

  it('a second launch brings the window back instead of opening another', async () => {
    await startDesktopApp();
    const window = electron.windows[0]!;
    window.minimized = true;
    electron.appListeners.get('second-instance')?.forEach((listener) => listener());
    expect(window.calls).toEqual(['restore', 'focus']);
    expect(electron.windows).toHaveLength(1);
  });

  it('reopens a window on activate (macOS dock) after it was closed', async () => {
    await startDesktopApp();
    electron.appListeners.get('activate')?.forEach((listener) => listener());
    expect(electron.windows).toHaveLength(1);
    electron.windows[0]!.emit('closed');
    electron.appListeners.get('activate')?.forEach((listener) => listener());
    expect(electron.windows).toHaveLength(2);
  });
});
