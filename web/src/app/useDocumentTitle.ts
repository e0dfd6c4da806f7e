import { useLingui } from '@lingui/react';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useConfig } from '../features/config/config-context';
import { localizedTitle } from '../i18n/page-meta';

/** Keeps document.title in step with the page on screen, in its language (the prerendered HTML has the same title). */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const { brandName } = useConfig();
  const { i18n } = useLingui();
  useEffect(() => {
    document.title = localizedTitle(i18n, pathname, brandName);
  }, [pathname, brandName, i18n]);
}
