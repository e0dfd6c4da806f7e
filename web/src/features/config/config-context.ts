import { createContext, useContext } from 'react';
import {
  DEFAULT_BRAND_NAME,
  DEFAULT_SUPPORT_EMAIL,
  type PublicConfig,
} from '../../../../shared/config.js';

/** Used until `/api/config` answers (and if it never does). */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  brandName: DEFAULT_BRAND_NAME,
  supportEmail: DEFAULT_SUPPORT_EMAIL,
  cardPaymentsEnabled: false,
  stripePublishableKey: null,
};

export const ConfigContext = createContext<PublicConfig>(DEFAULT_PUBLIC_CONFIG);

export function useConfig(): PublicConfig {
  return useContext(ConfigContext);
}
