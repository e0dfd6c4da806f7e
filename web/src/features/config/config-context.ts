import { createContext, useContext } from 'react';
import {
  DEFAULT_BRAND_NAME,
  DEFAULT_LOCATIONS_CLAIM,
  siteContentFor,
  type PublicConfig,
} from '../../../../shared/config.js';
import { DEFAULT_CURRENCY } from '../../../../shared/currencies.js';
import { localizeLocationsClaim } from '../../../../shared/locations-claim.js';
import { useIsolate } from '../../i18n/bidi';
import { useLocale } from '../../i18n/locale-context';

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
  currency: DEFAULT_CURRENCY,
  siteContentTranslations: {},
};

export const ConfigContext = createContext<PublicConfig>(DEFAULT_PUBLIC_CONFIG);

export function useConfig(): PublicConfig {
  return useContext(ConfigContext);
}

/**
 * How many locations the site claims ('50+'), in the page's language (the operator's translation,
 * else the English one) and, when a number, in its digits ('۵۰+'); words are isolated on a
 * right-to-left page. While a prerendered page hydrates it is exactly what the server filled into the
 * page (`siteContentFor`, shared/site-template.ts's token), then it is written in the page's digits:
 * drawing the digits straight away would not match the served text (a hydration error).
 */
export function useLocationsClaim(): string {
  const config = useContext(ConfigContext);
  const { locale } = useLocale();
  const isolate = useIsolate();
  // The server writes the same into the prerendered page (static-site fillTemplate), so hydration keeps it;
  // isolated, so "50+" stays "50+" in a right-to-left sentence and an operator's words keep their order.
  return isolate(localizeLocationsClaim(siteContentFor(config, locale).locationsClaim, locale));
}

/** The store currency's ISO code as the site names it in words: 'EUR' ("All prices are in EUR"). */
export function useCurrencyCode(): string {
  return useContext(ConfigContext).currency.toUpperCase();
}

/** Puts settings the admin just saved into the public settings this page uses (the store currency prices are read in). */
export const ConfigUpdateContext = createContext<(saved: Partial<PublicConfig>) => void>(() => undefined);

export function useUpdateConfig(): (saved: Partial<PublicConfig>) => void {
  return useContext(ConfigUpdateContext);
}
