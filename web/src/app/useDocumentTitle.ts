import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useConfig } from '../features/config/config-context';
import { i18nFor, loadCatalogs } from '../i18n/catalogs';
import { useLocale } from '../i18n/locale-context';
import { localizedTitle } from '../i18n/page-meta';

/**
 * Keeps document.title in step with the page on screen, in its language. A prerendered page arrives
 * with its title, so the titles catalogue loads only when the title must change: on the first page
 * drawn in the browser (its shell's title is the bare brand name) and on every navigation after.
 */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const { brandName } = useConfig();
  const { locale } = useLocale();
  const first = useRef(true);
  useEffect(() => {
    const arrivedTitled = first.current && document.title !== brandName;
    first.current = false;
    if (arrivedTitled) return;
    let current = true;
    void loadCatalogs(locale, ['titles']).then(() => {
      if (current) document.title = localizedTitle(i18nFor(locale), pathname, brandName);
    });
    return () => {
      current = false;
    };
  }, [pathname, brandName, locale]);
}
