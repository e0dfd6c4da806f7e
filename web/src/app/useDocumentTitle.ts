import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useConfig } from '../features/config/config-context';
import { documentTitle } from '../../../shared/page-titles.js';

/** Keeps document.title in step with the page on screen (the prerendered HTML has the same title). */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const { brandName } = useConfig();
  useEffect(() => {
    document.title = documentTitle(pathname, brandName);
  }, [pathname, brandName]);
}
