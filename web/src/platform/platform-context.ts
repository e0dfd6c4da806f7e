import { createContext, useContext } from 'react';
import { WEB_PLATFORM, type AppPlatform } from './platform';

/** The web app renders no provider: every screen sees the web platform. */
export const PlatformContext = createContext<AppPlatform>(WEB_PLATFORM);

export function usePlatform(): AppPlatform {
  return useContext(PlatformContext);
}
