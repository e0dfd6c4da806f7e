/**
 * The app's one window: sandboxed, context-isolated, no Node in the page, our preload only; locked to
 * our renderer (navigation.ts). When it gains focus the renderer is told, so a screen can reload
 * what may have changed meanwhile (e.g. after paying in the browser).
 */
import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { BRIDGE_CHANNELS } from '../../shared/platform-bridge.js';
import { PRODUCT_NAME } from './app-identity.js';
import { denyPermissions, lockNavigation } from './navigation.js';
import type { RendererLocation } from './renderer-location.js';

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: PRODUCT_NAME,
    width: 1120,
    height: 780,
    minWidth: 400,
    minHeight: 560,
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

export function createMainWindow(location: RendererLocation, deps: { openExternal: (url: string) => Promise<void> }): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(location.preloadPath));
  lockNavigation(window.webContents, { rendererUrl: location.rendererUrl, openExternal: deps.openExternal });
  denyPermissions(window.webContents.session, location.rendererUrl);
  window.on('focus', () => window.webContents.send(BRIDGE_CHANNELS.focus));
  window.once('ready-to-show', () => window.show());
  window.loadURL(location.rendererUrl).catch((error: unknown) => console.error('[window] could not load the renderer:', error));
  return window;
}
