import { StrictMode } from 'react';
import type { PublicConfig } from '../../../shared/config.js';
import type { Plan } from '../../../shared/plans.js';
import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.js';
import { LocaleProvider } from '../i18n/locale-context';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { AuthProvider } from '../features/auth/AuthProvider';
import { ConfigProvider } from '../features/config/ConfigProvider';
import { PlanCatalogProvider } from '../features/plans/PlanCatalogProvider';
import { ToastProvider } from '../features/toast/ToastProvider';
import { PasskeyChallengeHost } from '../features/passkeys/PasskeyChallengeHost';
import { RootLayout } from './RootLayout';
import { AppRoutes } from './routes';

/**
 * The whole app below the router. The browser wraps it in a BrowserRouter (main.tsx); the build
 * and the server wrap it in a StaticRouter to render public pages (entry-server.tsx). Pages that
 * show prices get the plans on sale as `initialPlans`; `locale` is the page's language (from its URL).
 */
export function App({ initialConfig, initialPlans, locale = DEFAULT_LOCALE }: { initialConfig?: PublicConfig; initialPlans?: Plan[]; locale?: Locale }) {
  return (
    <StrictMode>
      <LocaleProvider locale={locale}>
        <ErrorBoundary>
          <ToastProvider>
            <ConfigProvider initialConfig={initialConfig}>
              <PlanCatalogProvider initialPlans={initialPlans}>
                <AuthProvider>
                  <RootLayout>
                    <AppRoutes />
                  </RootLayout>
                  {/* "Confirm it's you with your passkey", when the server asks for it (staff after the code, a step-up). */}
                  <PasskeyChallengeHost />
                </AuthProvider>
              </PlanCatalogProvider>
            </ConfigProvider>
          </ToastProvider>
        </ErrorBoundary>
      </LocaleProvider>
    </StrictMode>
  );
}
