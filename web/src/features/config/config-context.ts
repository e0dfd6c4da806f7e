import { createContext, useContext } from 'react';
import { DEFAULT_BRAND_NAME, DEFAULT_LOCATIONS_CLAIM, siteContentFor, type PublicConfig } from '../../../../shared/config.js';
import { DEFAULT_CURRENCY } from '../../../../shared/currencies.js';
import { localizeLocationsClaim } from '../../../../shared/locations-claim.js';
import { useLocale } from '../../i18n/locale-context';

/** Used until `/api/config` answers (and if it never does). */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  brandName: DEFAULT_BRAND_NAME,
  // Only the desktop app and the Vite dev server start without the embedded settings, for a moment.
  supportEmail: '',
  locationsClaim: DEFAULT_LOCATIONS_CLAIM,
  protectionFeatures: true,
  trialOffered: false,
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
 * How many locations the site claims ('50+'), in the page's language (the operator's translation, else
 * the English one) and in the page's digits ('۵۰+' on Persian pages): the same text the server fills a
 * prerendered page with, so hydration keeps it.
 */
export function useLocationsClaim(): string {
  const config = useContext(ConfigContext);
  const { locale } = useLocale();
  // The server writes the same into the prerendered page (static-site fillTemplate), so hydration keeps it. A claim
  // is always a number (Settings → Site content checks it), so it needs no isolation: "۵۰+" reads as Persian text does.
  return localizeLocationsClaim(siteContentFor(config, locale).locationsClaim, locale);
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
