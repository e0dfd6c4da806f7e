import { I18nProvider } from '@lingui/react';
import { createContext, use, useContext, type ReactNode } from 'react';
import { DEFAULT_LOCALE, textDirection, type Locale } from '../../../shared/locales.js';
import { i18nFor, loadCatalogs, type Namespace } from './catalogs';

interface LocaleContextValue {
  locale: Locale;
  /** Another language for the whole app (the desktop app; the website moves to the other language's URL instead). */
  changeLocale?: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleContextValue>({ locale: DEFAULT_LOCALE });

/**
 * The language of everything below: its Lingui instance for `useLingui()` and `<Trans>`, and the
 * locale for dates, numbers and money. The website takes it from the URL (`/ru/...`), the desktop
 * app from the OS or the user's choice. The common catalogue is loaded before anything shows.
 */
export function LocaleProvider({ locale, changeLocale, children }: LocaleContextValue & { children: ReactNode }) {
  return (
    <LocaleContext value={{ locale, changeLocale }}>
      <I18nProvider i18n={i18nFor(locale)}>
        <Catalogs namespaces={COMMON}>{children}</Catalogs>
      </I18nProvider>
    </LocaleContext>
  );
}

const COMMON: readonly Namespace[] = ['common'];

export function useLocale(): LocaleContextValue & { dir: 'ltr' | 'rtl' } {
  const value = useContext(LocaleContext);
  return { ...value, dir: textDirection(value.locale) };
}

/** Shows `children` once these catalogues are loaded in the current language (suspends until then). */
export function Catalogs({ namespaces, children }: { namespaces: readonly Namespace[]; children: ReactNode }) {
  const { locale } = useContext(LocaleContext);
  use(loadCatalogs(locale, namespaces));
  return children;
}
