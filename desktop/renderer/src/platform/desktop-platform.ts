import { platformFromUserAgent } from '../../../../shared/deep-links.js';
import type { PlatformBridge } from '../../../../shared/platform-bridge.js';
import type { DesktopPlatform } from '../../../../web/src/platform/platform';

/** The desktop Platform over the preload's bridge; `serverUrl` is read once at start. */
export function createDesktopPlatform(bridge: PlatformBridge, serverUrl: string, userAgent: string): DesktopPlatform {
  const websiteUrl = (path: string) => `${serverUrl.replace(/\/+$/, '')}${path}`;
  return {
    kind: 'desktop',
    os: platformFromUserAgent(userAgent),
    serverUrl,
    websiteUrl,
    openWebsite: async (path) => (await bridge.openExternal(websiteUrl(path))).opened,
    openExternal: async (url) => (await bridge.openExternal(url)).opened,
    detectClients: () => bridge.detectClients(),
    openDeepLink: async (link) => (await bridge.openDeepLink(link)).opened,
    setServerUrl: async (url) => {
      const result = await bridge.setServerUrl(url);
      return result.ok ? { ok: true } : { ok: false, message: result.message };
    },
    onFocus: (listener) => bridge.onFocus(listener),
    appUpdates: {
      readyVersion: async () => {
        const status = await bridge.getUpdateStatus();
        return status.ready ? status.version : null;
      },
      onReady: (listener) => bridge.onUpdateReady(listener),
      restart: async () => (await bridge.restartToUpdate()).restarting,
    },
  };
}
