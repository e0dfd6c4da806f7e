/**
 * The desktop app's identity, from the operator's brand (desktop/brand.json): the build inlines it as
 * `__DESKTOP_BRAND__` (electron.vite.config.ts; vitest.config.ts does the same for the tests), so a
 * branded app is a build with another brand file, never a code edit.
 */
export interface AppBrand {
  productName: string;
  /** Reverse-DNS: the Windows AppUserModelID and macOS bundle id (electron-builder's appId says the same). */
  appId: string;
  /** The OS keychain's service name for the refresh tokens (one entry per server and e-mail). */
  keychainService: string;
  /** The storefront the app talks to until the user chooses another (an origin, checked at build time). */
  serverUrl: string;
}

declare const __DESKTOP_BRAND__: AppBrand | undefined;

function inlinedBrand(): AppBrand {
  if (typeof __DESKTOP_BRAND__ === 'undefined') {
    throw new Error('The desktop brand was not inlined: build the app with `npm run build:desktop` (electron.vite.config.ts defines __DESKTOP_BRAND__).');
  }
  return __DESKTOP_BRAND__;
}

export const APP_BRAND: AppBrand = inlinedBrand();
export const APP_ID = APP_BRAND.appId;
export const PRODUCT_NAME = APP_BRAND.productName;
export const KEYCHAIN_SERVICE = APP_BRAND.keychainService;
