/**
 * The app updates itself from the operator's own server: electron-updater's generic provider at
 * `<server>/desktop/updates/<channel>/`, the server the user signs in to (the storefront serves the folder the
 * operator published the release workflow's files into). It looks at start and every few hours, downloads a
 * newer version in the background, and electron-updater checks it before it is installed: the publisher's
 * signature on Windows (the certificate's name in the app's app-update.yml), the code signature on macOS
 * (Squirrel.Mac), the SHA-512 of the feed everywhere. The user is then offered "Restart to update"; an app
 * is never restarted under them, and an update not taken is installed when they quit.
 */
import type { AppUpdater, UpdateDownloadedEvent } from 'electron-updater';
import type { DesktopChannel } from '../../shared/desktop-releases.js';
import type { AppUpdateStatus } from '../../shared/platform-bridge.js';

/** How often a running app looks for an update. */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

/** A prerelease (1.3.0-beta.1) follows the beta channel, a release the stable one (the operator publishes stable releases to both). */
export const channelOfVersion = (version: string): DesktopChannel => (/^\d+\.\d+\.\d+-/.test(version) ? 'beta' : 'stable');

/** The updater's feed folder on a storefront. */
export const updateFeedUrl = (serverUrl: string, channel: DesktopChannel): string => `${serverUrl}/desktop/updates/${channel}/`;

export type Updater = Pick<AppUpdater, 'checkForUpdates' | 'quitAndInstall' | 'setFeedURL'> & {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'update-downloaded', listener: (event: UpdateDownloadedEvent) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
};

export interface AppUpdatesDeps {
  updater: Updater;
  /** The server the app talks to now (the user may change it). */
  serverUrl: () => Promise<string>;
  channel: DesktopChannel;
  /** Tells the window that an update is ready. */
  notifyReady: (version: string) => void;
  log: (message: string, error?: unknown) => void;
  setInterval?: (run: () => void, ms: number) => { unref?: () => void };
}

export function createAppUpdates(deps: AppUpdatesDeps) {
  const { updater } = deps;
  let status: AppUpdateStatus = { ready: false };
  let checking: Promise<void> | undefined;
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.on('update-downloaded', (event) => {
    status = { ready: true, version: event.version };
    deps.notifyReady(event.version);
  });
  updater.on('error', (error) => deps.log('the update could not be checked or downloaded', error));

  /** Asks the server for a newer version (electron-updater downloads it when there is one); never throws. */
  function check(): Promise<void> {
    if (status.ready) return Promise.resolve();
    checking ??= (async () => {
      try {
        updater.setFeedURL({ provider: 'generic', url: updateFeedUrl(await deps.serverUrl(), deps.channel) });
        const result = await updater.checkForUpdates();
        // The download runs in the background; its end is the 'update-downloaded' event.
        await result?.downloadPromise;
      } catch (error) {
        deps.log('the update could not be checked or downloaded', error);
      } finally {
        checking = undefined;
      }
    })();
    return checking;
  }

  return {
    check,
    /** Checks now and every UPDATE_CHECK_INTERVAL_MS. */
    start(): void {
      void check();
      deps.setInterval?.(() => void check(), UPDATE_CHECK_INTERVAL_MS)?.unref?.();
    },
    getStatus: async (): Promise<AppUpdateStatus> => status,
    /** Only when the user asks, and only with an update downloaded. */
    async restartToUpdate(): Promise<{ restarting: boolean }> {
      if (!status.ready) return { restarting: false };
      updater.quitAndInstall(false, true);
      return { restarting: true };
    },
  };
}

export type AppUpdates = ReturnType<typeof createAppUpdates>;
