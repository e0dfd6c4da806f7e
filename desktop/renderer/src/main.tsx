import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { configureApiClient } from '../../../web/src/api';
import { ErrorScreen } from '../../../web/src/components/ErrorScreen';
import { DesktopApp } from './app/DesktopApp';
import { createBridgeFetch } from './platform/bridge-fetch';
import { createDesktopPlatform } from './platform/desktop-platform';
import { readBridge } from './platform/read-bridge';
import './styles.css';

/**
 * The desktop renderer: the web app's screens over the preload's bridge. API calls go through the
 * main process, which holds the session and renews it itself (so no refresh from here), and the
 * file:// page routes in its hash.
 */
async function start(): Promise<ReactNode> {
  const bridge = readBridge();
  configureApiClient({ credentials: 'omit', fetch: createBridgeFetch(bridge), refreshSession: async () => false });
  const platform = createDesktopPlatform(bridge, await bridge.getServerUrl(), navigator.userAgent);
  return (
    <HashRouter>
      <DesktopApp platform={platform} />
    </HashRouter>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
const root = createRoot(container);
start().then(
  (app) => root.render(app),
  (error: unknown) => root.render(<ErrorScreen message={error instanceof Error ? error.message : undefined} />),
);
