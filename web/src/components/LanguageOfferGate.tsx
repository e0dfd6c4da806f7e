import { useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router-dom';
import { DEFAULT_LOCALE, localizedPath, type Locale } from '../../../shared/locales.js';
import { loadCatalogs } from '../i18n/catalogs';
import { useLocale } from '../i18n/locale-context';
import { preferredLocale, storedLocale } from '../i18n/locale-choice';

/**
 * On the English home page: a visitor who chose another language before is taken to it; a first-time
 * visitor whose browser prefers one of our other languages is offered it (LanguageOffer), not moved.
 * Decided after hydration: the prerendered page is the same for everyone. The bar and its texts load
 * only for a visitor it is offered to.
 */
export function LanguageOfferGate() {
  const { locale, changeLocale } = useLocale();
  const { pathname, search, hash } = useLocation();
  const [offer, setOffer] = useState<{ locale: Locale; Bar: ComponentType<{ offer: Locale }> } | null>(null);
  const onHome = pathname === '/';

  useEffect(() => {
    if (changeLocale || locale !== DEFAULT_LOCALE || !onHome) return;
    const chosen = storedLocale();
    if (chosen && chosen !== DEFAULT_LOCALE) {
      window.location.replace(`${localizedPath(chosen, '/')}${search}${hash}`);
      return;
    }
    const wanted = chosen ? DEFAULT_LOCALE : preferredLocale(navigator.languages ?? [navigator.language]);
    if (wanted === DEFAULT_LOCALE) return;
    let current = true;
    Promise.all([import('./LanguageOffer'), loadCatalogs(wanted, ['common'])]).then(
      ([{ LanguageOffer }]) => current && setOffer({ locale: wanted, Bar: LanguageOffer }),
      () => {}, // Offline or a failed chunk: no offer, the page works as it is.
    );
    return () => {
      current = false;
    };
  }, [changeLocale, locale, onHome, search, hash]);

  if (!offer || !onHome) return null;
  return <offer.Bar offer={offer.locale} />;
}
