import { StrictMode } from 'react';
import type { PublicConfig } from '../../../shared/config.js';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { AuthProvider } from '../features/auth/AuthProvider';
import { ConfigProvider } from '../features/config/ConfigProvider';
import { ToastProvider } from '../features/toast/ToastProvider';
import { RootLayout } from './RootLayout';
import { AppRoutes } from './routes';

/**
 * The whole app below the router. The browser wraps it in a BrowserRouter (main.tsx); the build
 * wraps it in a StaticRouter to prerender public pages (entry-server.tsx).
 */
export function App({ initialConfig }: { initialConfig?: PublicConfig }) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <ToastProvider>
          <ConfigProvider initialConfig={initialConfig}>
            <AuthProvider>
              <RootLayout>
                <AppRoutes />
              </RootLayout>
            </AuthProvider>
          </ConfigProvider>
        </ToastProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
