import { StrictMode } from 'react';
import type { PublicConfig } from '../../../shared/config.js';
import type { Plan } from '../../../shared/plans.js';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { AuthProvider } from '../features/auth/AuthProvider';
import { ConfigProvider } from '../features/config/ConfigProvider';
import { PlanCatalogProvider } from '../features/plans/PlanCatalogProvider';
import { ToastProvider } from '../features/toast/ToastProvider';
import { RootLayout } from './RootLayout';
import { AppRoutes } from './routes';

/**
 * The whole app below the router. The browser wraps it in a BrowserRouter (main.tsx); the build
 * and the server wrap it in a StaticRouter to render public pages (entry-server.tsx). Pages that
 * show prices get the plans on sale as `initialPlans`.
 */
export function App({ initialConfig, initialPlans }: { initialConfig?: PublicConfig; initialPlans?: Plan[] }) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <ToastProvider>
          <ConfigProvider initialConfig={initialConfig}>
            <PlanCatalogProvider initialPlans={initialPlans}>
              <AuthProvider>
                <RootLayout>
                  <AppRoutes />
                </RootLayout>
              </AuthProvider>
            </PlanCatalogProvider>
          </ConfigProvider>
        </ToastProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
