import type { DesktopPlatform } from '../../../../web/src/platform/platform';
import { usePlatform } from '../../../../web/src/platform/platform-context';

/** The desktop Platform the app was started with (the desktop screens render only under it). */
export function useDesktopPlatform(): DesktopPlatform {
  const platform = usePlatform();
  if (platform.kind !== 'desktop') throw new Error('useDesktopPlatform must be used inside the desktop app');
  return platform;
}
