import { startTransition, useCallback, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { textDirection, type Locale } from '../../../../shared/locales.js';
import { loadCatalogs, type Namespace } from '../../../../web/src/i18n/catalogs';
import { LocaleProvider } from '../../../../web/src/i18n/locale-context';
import { preferredLocale, storedLocale } from '../../../../web/src/i18n/locale-choice';

/**
 * The message catalogues each part of the app shows (`<Catalogs namespaces={...}>`). All of them
 * are loaded before the app starts or changes language, so no screen waits for its words.
 */
export const DESKTOP_CATALOGS = {
  layout: ['desktop'],
  signIn: ['desktop', 'login'],
  settings: ['desktop'],
  // The web dashboard's table and dialogs (the website's /dashboard loads these two).
  accounts: ['desktop', 'account', 'pricing'],
} as const satisfies Record<string, readonly Namespace[]>;

/** Every catalogue group the app uses, in `locale` (the same groups `<Catalogs>` asks for, so none suspends). */
export function loadDesktopCatalogs(locale: Locale): Promise<unknown> {
  return Promise.all([['common'] as const, ...Object.values(DESKTOP_CATALOGS)].map((namespaces) => loadCatalogs(locale, namespaces)));
}

/** The operating system's language (the best of ours for `navigator.languages`), English when none matches. */
export function systemLocale(): Locale {
  return preferredLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** The app's language: the user's choice (Settings), else the operating system's. */
export function desktopLocale(): Locale {
  return storedLocale() ?? systemLocale();
}

/** `<html lang dir>` for the language: screen readers, fonts and right-to-left layout follow them. */
export function applyDocumentLocale(locale: Locale): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = textDirection(locale);
}

/**
 * The language of the whole app, which changes in place (Settings): the new language's catalogues
 * are loaded first, then the screens switch over in one step. Without a choice of the user's, it
 * follows the operating system's language when that changes.
 */
export function DesktopLocaleProvider({ initialLocale, children }: { initialLocale: Locale; children: ReactNode }) {
  const [locale, setLocale] = useState(initialLocale);

  const changeLocale = useCallback((next: Locale) => {
    loadDesktopCatalogs(next).then(
      () => startTransition(() => setLocale(next)),
      () => undefined, // the words of that language did not load: stay in this one
    );
  }, []);

  useLayoutEffect(() => applyDocumentLocale(locale), [locale]);

  useEffect(() => {
    const followSystem = () => {
      if (!storedLocale()) changeLocale(systemLocale());
    };
    window.addEventListener('languagechange', followSystem);
    return () => window.removeEventListener('languagechange', followSystem);
  }, [changeLocale]);

  return (
    <LocaleProvider locale={locale} changeLocale={changeLocale}>
      {children}
    </LocaleProvider>
  );
}
