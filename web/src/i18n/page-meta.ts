import type { I18n } from '@lingui/core';
import { adminTabAt } from '../../../shared/admin-tabs.js';
import type { Locale } from '../../../shared/locales.js';
import { i18nFor, loadCatalogs } from './catalogs';

const normalise = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/** The path whose title a page carries: every admin tab and customer page is the Admin Panel; every payment link is Payment. */
const titledPath = (path: string) => {
  if (adminTabAt(path) || /^\/admin\/users\/[^/]+$/.test(path)) return '/admin';
  return /^\/pay\/[^/]+$/.test(path) ? '/pay' : path;
};

/**
 * The document title of a page (a path without its language prefix) in the language of `i18n`, whose
 * `titles` catalogue must be loaded; the 404 title for a path that is no page. The home page's title
 * carries the brand itself.
 */
export function localizedTitle(i18n: I18n, pathname: string, brandName: string): string {
  const path = titledPath(normalise(pathname));
  // A page has a title in the titles catalogue; any other path is the 404 page.
  const known = Object.hasOwn(i18n.messages, `title.${path}`);
  const title = i18n._(known ? `title.${path}` : 'title.notFound', { brand: brandName });
  return path === '/' && known ? title : `${title} | ${brandName}`;
}

/** The title and search-engine description of a public page in `locale` (for the prerendered head). */
export async function pageMeta(locale: Locale, pathname: string, brandName: string): Promise<{ title: string; description: string }> {
  await loadCatalogs(locale, ['titles', 'meta']);
  const i18n = i18nFor(locale);
  const path = normalise(pathname);
  return { title: localizedTitle(i18n, path, brandName), description: i18n._(`description.${path}`, { brand: brandName }) };
}
