import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { configureApiClient } from '../../../web/src/api';
import { ErrorScreen } from '../../../web/src/components/ErrorScreen';
import { DesktopApp } from './app/DesktopApp';
import { applyDocumentLocale, desktopLocale, DesktopLocaleProvider, loadDesktopCatalogs } from './app/desktop-locale';
import { createBridgeFetch } from './platform/bridge-fetch';
import { createDesktopPlatform } from './platform/desktop-platform';
import { readBridge } from './platform/read-bridge';
import './styles.css';

/**
 * The desktop renderer: the web app's screens over the preload's bridge. API calls go through the
 * main process, which holds the session and renews it itself (so no refresh from here), and the
 * file:// page routes in its hash. The language is the user's choice (Settings) or the OS's.
 */
const locale = desktopLocale();
applyDocumentLocale(locale);

async function start(): Promise<ReactNode> {
  const bridge = readBridge();
  configureApiClient({ credentials: 'omit', fetch: createBridgeFetch(bridge), refreshSession: async () => false });
  const [serverUrl] = await Promise.all([bridge.getServerUrl(), loadDesktopCatalogs(locale)]);
  const platform = createDesktopPlatform(bridge, serverUrl, navigator.userAgent);
  return (
    <HashRouter>
      <DesktopApp platform={platform} />
    </HashRouter>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = createRoot(container);
const render = (app: ReactNode) => root.render(<DesktopLocaleProvider initialLocale={locale}>{app}</DesktopLocaleProvider>);
start().then(
  (app) => render(app),
  (error: unknown) => render(<ErrorScreen message={error instanceof Error ? error.message : undefined} />),
);
