import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { PublicConfig } from '../../shared/config.js';
import { LOCALE_PREFIX, splitLocalePath } from '../../shared/locales.js';
import type { Plan } from '../../shared/plans.js';
import { App } from './app/App';
import { pageAt, preloadPage } from './app/routes';
import { loadCatalogs, type Namespace } from './i18n/catalogs';

export { APP_PAGES, NOT_FOUND_PAGE, PUBLIC_PAGES, documentTitle, withBrand, type SitePage } from './app/site-pages';
export { pageMeta } from './i18n/page-meta';

/** What the page at `path` (without its language prefix) loads before it hydrates: its source module and its catalogues. */
export function pageModules(path: string): { module: string; namespaces: Namespace[] } {
  const page = pageAt(path);
  return { module: page.module, namespaces: ['common', ...page.namespaces] };
}

/** Markers of a Suspense boundary left pending or client-rendered: its content would not be in the HTML. */
const UNFINISHED_BOUNDARY = /<!--\$[?!]-->/;

/**
 * The HTML of `url` (with its language prefix: `/ru/pricing`) as a signed-out visitor first sees it;
 * `plans` are the plans on sale for the pages that show prices (the server passes them on each
 * render of such a page). A lazy page suspends the first time React meets it, even once its module
 * and catalogues are loaded, so a first render starts the loads and, once they are in, a second
 * render has everything inline: no streaming placeholders, no inline scripts (which the site's CSP
 * would block).
 */
export async function renderPage(url: string, config: PublicConfig, plans?: Plan[]): Promise<string> {
  const { locale, path } = splitLocalePath(url);
  const app = (
    <StaticRouter location={url} basename={LOCALE_PREFIX[locale] || undefined}>
      <App initialConfig={config} initialPlans={plans} locale={locale} />
    </StaticRouter>
  );
  await Promise.all([loadCatalogs(locale, ['common']), preloadPage(path, locale)]);
  renderToString(app);
  await new Promise((resolve) => setImmediate(resolve));
  const html = renderToString(app);
  if (UNFINISHED_BOUNDARY.test(html)) throw new Error(`Prerendering ${url} left a Suspense boundary unfinished`);
  return html;
}
