/**
 * The desktop app's main process: app lifecycle only. One instance at a time; once Electron is
 * ready it opens the session store (OS keychain + settings file), the API session, client
 * detection, the bridge's IPC handlers and the window. Under vitest nothing starts: the tests
 * import the pieces (and `startDesktopApp` with a mocked `electron`).
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, shell, type BrowserWindow } from 'electron';
import { BRIDGE_CHANNELS } from '../../shared/platform-bridge.js';
import { createApiSession } from './api-session.js';
import { channelOfVersion, createAppUpdates, type AppUpdates } from './app-updates.js';
import { APP_BRAND, APP_ID, KEYCHAIN_SERVICE, PRODUCT_NAME } from './app-identity.js';
import { createBridgeHandlers } from './bridge-handlers.js';
import { describeThisDevice } from './device-identity.js';
import { isTrustedSender, registerBridgeHandlers } from './ipc.js';
import { resolveRendererLocation } from './renderer-location.js';
import { createOsKeyring, createSessionStore } from './session-store.js';
import { createClientDetector } from './vpn-clients.js';
import { createMainWindow } from './window.js';

export async function startDesktopApp(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();
  app.setPath('userData', join(app.getPath('appData'), PRODUCT_NAME));
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

  const location = resolveRendererLocation(dirname(fileURLToPath(import.meta.url)), {
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
  });
  const openExternal = (url: string) => shell.openExternal(url);
  let window: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  await app.whenReady();
  const store = createSessionStore({
    keyring: createOsKeyring(),
    settingsDir: app.getPath('userData'),
    service: KEYCHAIN_SERVICE,
    defaultServerUrl: APP_BRAND.serverUrl,
  });
  const session = createApiSession({ store, device: describeThisDevice() });
  const detector = createClientDetector({ lookupProtocol: (url) => app.getApplicationNameForProtocol(url) });
  // Not awaited: loading electron-updater must not hold the window back; the bridge waits for it instead.
  const started = startUpdates(
    () => store.getServerUrl(),
    (version) => window?.webContents.send(BRIDGE_CHANNELS.updateReady, version),
  );
  const updates: Pick<AppUpdates, 'getStatus' | 'restartToUpdate'> = {
    getStatus: async () => (await started).getStatus(),
    restartToUpdate: async () => (await started).restartToUpdate(),
  };
  registerBridgeHandlers(createBridgeHandlers({ session, store, detector, openExternal, updates }), (event) =>
    isTrustedSender(event, window, location.rendererUrl),
  );

  const openWindow = () => {
    window = createMainWindow(location, { openExternal });
    window.on('closed', () => {
      window = null;
    });
  };
  openWindow();
  app.on('activate', () => {
    if (!window) openWindow();
  });
}

/** What an app that cannot update itself answers (one run from its sources, not installed). */
const NO_UPDATES: Pick<AppUpdates, 'getStatus' | 'restartToUpdate'> = {
  getStatus: async () => ({ ready: false }),
  restartToUpdate: async () => ({ restarting: false }),
};

/** An installed app looks for updates on its server (app-updates.ts); electron-updater is loaded only then. */
async function startUpdates(
  serverUrl: () => Promise<string>,
  notifyReady: (version: string) => void,
): Promise<Pick<AppUpdates, 'getStatus' | 'restartToUpdate'>> {
  if (!app.isPackaged) return NO_UPDATES;
  const { autoUpdater } = await import('electron-updater').catch((error: unknown) => {
    console.warn('[updates] electron-updater could not be loaded:', error);
    return { autoUpdater: undefined };
  });
  if (!autoUpdater) return NO_UPDATES;
  const updates = createAppUpdates({
    updater: autoUpdater,
    serverUrl,
    channel: channelOfVersion(app.getVersion()),
    notifyReady,
    log: (message, error) => console.warn(`[updates] ${message}:`, error),
    setInterval,
  });
  updates.start();
  return updates;
}

if (!process.env.VITEST) {
  startDesktopApp().catch((error: unknown) => {
    console.error('[main] the app could not start:', error);
    app.exit(1);
  });
}
