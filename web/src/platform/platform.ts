import type { Platform as OperatingSystem } from '../../../shared/platforms.js';

/**
 * What differs between the website and the desktop app, for the screens both show. The web app
 * renders no provider and gets `WEB_PLATFORM`; the desktop renderer provides its bridge-backed
 * implementation (desktop/renderer/src/platform/).
 */
export type AppPlatform = WebPlatform | DesktopPlatform;

export interface WebPlatform {
  kind: 'web';
}

export interface DesktopPlatform {
  kind: 'desktop';
  /** The computer's operating system, when known: the setup dialog opens on its tab. */
  os: OperatingSystem | null;
  /** The server (and website) this app talks to, read at start; changing it reloads the app. */
  serverUrl: string;
  /** The address of a page of the website, e.g. `websiteUrl('/help')`. */
  websiteUrl(path: string): string;
  /** Opens a page of the website (`/dashboard`, `/download/linux`) in the system browser. */
  openWebsite(path: string): Promise<boolean>;
  /**
   * Opens an https page off the website (the payment provider's billing portal) in the system browser
   * (the bridge's `openExternal`). Without it, such pages are reached through the website instead.
   */
  openExternal?(url: string): Promise<boolean>;
  /** Ids (from `VPN_CLIENT_APPS`) of the VPN clients installed on this computer. */
  detectClients(): Promise<string[]>;
  /** Opens a VPN client's deep link; false when the app refused it (unknown scheme, no handler). */
  openDeepLink(link: string): Promise<boolean>;
  /** Saves another server address; the refusal's message is safe to show. */
  setServerUrl(url: string): Promise<{ ok: true } | { ok: false; message: string }>;
  /** Calls `listener` when the window regains focus; returns the unsubscribe. */
  onFocus(listener: () => void): () => void;
  /** The app's own updates: downloaded in the background, installed when the user restarts for them. */
  appUpdates: {
    /** The version downloaded and waiting for a restart, or null. */
    readyVersion(): Promise<string | null>;
    /** Calls `listener` with the version when one has been downloaded; returns the unsubscribe. */
    onReady(listener: (version: string) => void): () => void;
    /** Restarts into the update; false when none is ready. */
    restart(): Promise<boolean>;
  };
}

export const WEB_PLATFORM: WebPlatform = { kind: 'web' };
