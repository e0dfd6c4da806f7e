import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { preloadPage } from './app/routes';
import { readEmbeddedConfig } from './features/config/embedded-config';
import { readEmbeddedPlans } from './features/plans/embedded-plans';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

const app = (
  <BrowserRouter>
    <App initialConfig={readEmbeddedConfig()} initialPlans={readEmbeddedPlans()} />
  </BrowserRouter>
);

// A prerendered page already holds the page's HTML: load its chunk, then hydrate (keep the HTML).
// Pages drawn only in the browser (dashboard, admin) arrive empty and are rendered from scratch.
if (container.hasChildNodes()) {
  void preloadPage(window.location.pathname).then(() => hydrateRoot(container, app));
} else {
  createRoot(container).render(app);
}
