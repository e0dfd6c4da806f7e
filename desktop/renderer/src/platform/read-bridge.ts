import type { PlatformBridge } from '../../../../shared/platform-bridge.js';

/** The bridge the preload exposes as `window.platform`. Without it (a plain browser) the app cannot start. */
export function readBridge(): PlatformBridge {
  const bridge = (window as Window & { platform?: PlatformBridge }).platform;
  if (!bridge) throw new Error('This page runs inside the desktop app only (window.platform is missing).');
  return bridge;
}
