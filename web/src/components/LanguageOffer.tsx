import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { DEFAULT_LOCALE, HREFLANG, localizedPath, textDirection, type Locale } from '../../../shared/locales.js';
import { i18nFor, loadCatalogs } from '../i18n/catalogs';
import { useLocale } from '../i18n/locale-context';
import { preferredLocale, storeLocale, storedLocale } from '../i18n/locale-choice';

/**
 * On the English home page: a visitor who chose another language before is taken to it; a first-time
 * visitor whose browser prefers one of our other languages is offered it (in that language), not moved.
 * "Stay in English" remembers English. Drawn after hydration only: the prerendered page is the same for everyone.
 */
export function LanguageOffer() {
  const { locale, changeLocale } = useLocale();
  const { pathname, search, hash } = useLocation();
  const [offer, setOffer] = useState<Locale | null>(null);
  const onHome = pathname === '/';

  useEffect(() => {
    if (changeLocale || locale !== DEFAULT_LOCALE || !onHome) return;
    const chosen = storedLocale();
    if (chosen && chosen !== DEFAULT_LOCALE) {
      window.location.replace(`${localizedPath(chosen, '/')}${search}${hash}`);
      return;
    }
    if (chosen) return;
    const wanted = preferredLocale(navigator.languages ?? [navigator.language]);
    if (wanted === DEFAULT_LOCALE) return;
    let current = true;
    void loadCatalogs(wanted, ['common']).then(() => current && setOffer(wanted));
    return () => {
      current = false;
    };
  }, [changeLocale, locale, onHome, search, hash]);

  if (!offer || !onHome) return null;
  const _ = i18nFor(offer)._.bind(i18nFor(offer));
  const stay = () => {
    storeLocale(DEFAULT_LOCALE);
    setOffer(null);
  };
  return (
    <div role="region" aria-label={_('language.offerLabel')} lang={HREFLANG[offer]} dir={textDirection(offer)} className="bg-indigo-100 text-indigo-950">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-4 gap-y-2 px-4 py-2 text-sm sm:px-6">
        <p>{_('language.offer')}</p>
        <div className="flex gap-2">
          <a
            href={localizedPath(offer, '/')}
            onClick={() => storeLocale(offer)}
            className="rounded-md bg-indigo-700 px-3 py-1 font-semibold text-white hover:bg-indigo-600"
          >
            {_('language.switch')}
          </a>
          <button type="button" onClick={stay} className="rounded-md px-3 py-1 font-medium text-indigo-900 hover:bg-indigo-200">
            {_('language.stay')}
          </button>
        </div>
      </div>
    </div>
  );
}
