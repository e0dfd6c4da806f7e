import { StrictMode } from 'react';
import { ErrorBoundary } from '../../../../web/src/components/ErrorBoundary';
import { AuthProvider } from '../../../../web/src/features/auth/AuthProvider';
import { ConfigProvider } from '../../../../web/src/features/config/ConfigProvider';
import { ToastProvider } from '../../../../web/src/features/toast/ToastProvider';
import { Catalogs } from '../../../../web/src/i18n/locale-context';
import type { DesktopPlatform } from '../../../../web/src/platform/platform';
import { PlatformContext } from '../../../../web/src/platform/platform-context';
import { DESKTOP_CATALOGS } from './desktop-locale';
import { DesktopLayout } from './DesktopLayout';
import { DesktopRoutes } from './DesktopRoutes';

/**
 * The web app's providers with the desktop Platform: the public settings come from `/api/config`
 * (there is no server-rendered page to embed them), and the session from `/api/auth/session`, which
 * the main process answers from the keychain. The language is set around it (main.tsx).
 */
export function DesktopApp({ platform }: { platform: DesktopPlatform }) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <PlatformContext value={platform}>
          <ToastProvider>
            <ConfigProvider>
              <AuthProvider>
                <Catalogs namespaces={DESKTOP_CATALOGS.layout}>
                  <DesktopLayout>
                    <DesktopRoutes />
                  </DesktopLayout>
                </Catalogs>
              </AuthProvider>
            </ConfigProvider>
          </ToastProvider>
        </PlatformContext>
      </ErrorBoundary>
    </StrictMode>
  );
}
