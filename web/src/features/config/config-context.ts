import { createContext, useContext } from 'react';
import {
  DEFAULT_BRAND_NAME,
  DEFAULT_LOCATIONS_CLAIM,
  type PublicConfig,
} from '../../../../shared/config.js';

/** Used until `/api/config` answers (and if it never does). */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  brandName: DEFAULT_BRAND_NAME,
  // Only the desktop app and the Vite dev server start without the embedded settings, for a moment.
  supportEmail: '',
  locationsClaim: DEFAULT_LOCATIONS_CLAIM,
  protectionFeatures: true,
  cardPaymentsEnabled: false,
  paymentMethods: [],
  stripePublishableKey: null,
};

export const ConfigContext = createContext<PublicConfig>(DEFAULT_PUBLIC_CONFIG);

export function useConfig(): PublicConfig {
  return useContext(ConfigContext);
}
