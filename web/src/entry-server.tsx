import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { PublicConfig } from '../../shared/config.js';
import type { Plan } from '../../shared/plans.js';
import { App } from './app/App';
import { preloadPage } from './app/routes';

export { APP_PAGES, NOT_FOUND_PAGE, PUBLIC_PAGES, documentTitle, withBrand, type SitePage } from './app/site-pages';

/** Markers of a Suspense boundary left pending or client-rendered: its content would not be in the HTML. */
const UNFINISHED_BOUNDARY = /<!--\$[?!]-->/;

/**
 * The HTML of `url` as a signed-out visitor first sees it; `plans` are the plans on sale for the
 * pages that show prices (the server passes them on each render of such a page). A lazy page suspends the first time React
 * meets it, even once its module is loaded, so a first render starts the loads and, once the page's
 * module is in, a second render has everything inline: no streaming placeholders, no inline scripts
 * (which the site's CSP would block).
 */
export async function renderPage(url: string, config: PublicConfig, plans?: Plan[]): Promise<string> {
  const app = (
    <StaticRouter location={url}>
      <App initialConfig={config} initialPlans={plans} />
    </StaticRouter>
  );
  renderToString(app);
  await preloadPage(url);
  await new Promise((resolve) => setImmediate(resolve));
  const html = renderToString(app);
  if (UNFINISHED_BOUNDARY.test(html)) throw new Error(`Prerendering ${url} left a Suspense boundary unfinished`);
  return html;
}
