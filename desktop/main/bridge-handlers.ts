/**
 * What each bridge method does in the main process, once ipc.ts has checked the caller and the
 * arguments. The renderer's view of the same methods is `PlatformBridge` (shared/platform-bridge.ts).
 */
import type { PlatformBridge } from '../../shared/platform-bridge.js';
import type { ApiSession } from './api-session.js';
import type { AppUpdates } from './app-updates.js';
import { openExternalPage } from './external-links.js';
import { normaliseServerUrl } from './server-url.js';
import type { SessionStore } from './session-store.js';
import { openDeepLink, type ClientDetector } from './vpn-clients.js';

/** The renderer's listeners (`onFocus`, `onUpdateReady`) are events main sends, not handlers. */
export type BridgeHandlers = Omit<PlatformBridge, 'onFocus' | 'onUpdateReady'>;

export interface BridgeHandlerDeps {
  session: ApiSession;
  store: SessionStore;
  detector: ClientDetector;
  /** `shell.openExternal`. */
  openExternal: (url: string) => Promise<void>;
  updates: Pick<AppUpdates, 'getStatus' | 'restartToUpdate'>;
}

export function createBridgeHandlers(deps: BridgeHandlerDeps): BridgeHandlers {
  const { session, store, detector, openExternal, updates } = deps;
  return {
    request: (call) => session.request(call),

    getServerUrl: () => store.getServerUrl(),

    /** A different server signs the user out of the previous one first. */
    async setServerUrl(url) {
      const result = normaliseServerUrl(url);
      if (!result.ok) return result;
      if (result.serverUrl !== (await store.getServerUrl())) {
        await session.signOut();
        await store.setServerUrl(result.serverUrl);
      }
      return result;
    },

    detectClients: () => detector.detectClients(),

    openDeepLink: (link) => openDeepLink(link, { detector, openExternal }),

    openExternal: (url) => openExternalPage(url, openExternal),

    getUpdateStatus: () => updates.getStatus(),

    restartToUpdate: () => updates.restartToUpdate(),
  };
}
