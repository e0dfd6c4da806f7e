import { DEFAULT_BRAND_NAME } from '../../shared/config.js';

/** The desktop app's identity: electron-builder.yml's appId and productName say the same. */
export const APP_ID = 'com.lumenvpn.desktop';
export const PRODUCT_NAME = DEFAULT_BRAND_NAME;

/** The OS keychain's service name for the refresh tokens (one entry per server and e-mail). */
export const KEYCHAIN_SERVICE = APP_ID;
