import { useState } from 'react';
import { DEFAULT_LOCALE, HREFLANG, localizedPath, textDirection, type Locale } from '../../../shared/locales.js';
import { i18nFor } from '../i18n/catalogs';
import { storeLocale } from '../i18n/locale-choice';

/**
 * The bar offering a first-time visitor of the English home page the language their browser prefers,
 * in that language (its common catalogue is loaded before this shows); "Stay in English" remembers
 * English. LanguageOfferGate decides whether it shows.
 */
export function LanguageOffer({ offer }: { offer: Locale }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  const i18n = i18nFor(offer);
  const stay = () => {
    storeLocale(DEFAULT_LOCALE);
    setOpen(false);
  };
  return (
    <div role="region" aria-label={i18n._('language.offerLabel')} lang={HREFLANG[offer]} dir={textDirection(offer)} className="bg-indigo-100 text-indigo-950">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-center gap-x-4 gap-y-2 px-4 py-2 text-sm sm:px-6">
        <p>{i18n._('language.offer')}</p>
        <div className="flex gap-2">
          <a
            href={localizedPath(offer, '/')}
            onClick={() => storeLocale(offer)}
            className="rounded-md bg-indigo-700 px-3 py-1 font-semibold text-white hover:bg-indigo-600"
          >
            {i18n._('language.switch')}
          </a>
          <button type="button" onClick={stay} className="rounded-md px-3 py-1 font-medium text-indigo-900 hover:bg-indigo-200">
            {i18n._('language.stay')}
          </button>
        </div>
      </div>
    </div>
  );
}
