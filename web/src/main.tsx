import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { LOCALE_PREFIX, splitLocalePath } from '../../shared/locales.js';
import { App } from './app/App';
import { preloadPage, preloadPagesOnIntent } from './app/routes';
import { rememberPromoFromLink } from './features/billing/remembered-promo';
import { startMiniApp } from './features/telegram/start-mini-app';
import { readEmbeddedConfig } from './features/config/embedded-config';
import { readEmbeddedPlans } from './features/plans/embedded-plans';
import { setApiLanguage } from './api/language';
import { loadCatalogs } from './i18n/catalogs';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The language is the URL's: `/ru/...` is Russian, and the router works below that prefix.
const { locale, path } = splitLocalePath(window.location.pathname);
setApiLanguage(locale);
// `?promo=CODE` on any page fills the payment dialog's code later, after signing in too.
rememberPromoFromLink(window.location.search);
// Opened in Telegram as a Mini App: its launch data is kept to sign in with, and the page may move (nothing renders then).
const leaving = startMiniApp(locale, path);

const app = (
  <BrowserRouter basename={LOCALE_PREFIX[locale] || undefined}>
    <App initialConfig={readEmbeddedConfig()} initialPlans={readEmbeddedPlans()} locale={locale} />
  </BrowserRouter>
);

// A prerendered page already holds the page's HTML: load its chunk and catalogues, then hydrate (keep the HTML).
// Hydration is a transition, done in slices that leave the page responsive; a click or a key press on the page
// before it is done makes React finish it at once and then handle the event.
// Pages drawn only in the browser (dashboard, admin) arrive empty and are rendered from scratch.
const ready = Promise.all([loadCatalogs(locale, ['common']), preloadPage(path, locale)]);
if (leaving) {
  // The Mini App's page in Telegram's language, or its dashboard, is loading instead.
} else if (container.hasChildNodes()) {
  void ready.then(() => startTransition(() => void hydrateRoot(container, app)));
} else {
  createRoot(container).render(app);
}
if (!leaving) preloadPagesOnIntent(locale);
