import { Navigate, Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { PageErrorBoundary } from '../../../../web/src/app/PageErrorBoundary';
import { RequireSession } from '../../../../web/src/features/auth/RequireSession';
import { Catalogs } from '../../../../web/src/i18n/locale-context';
import { AccountsPage } from '../pages/AccountsPage';
import { SettingsPage } from '../pages/SettingsPage';
import { SignInPage } from '../pages/SignInPage';
import { DESKTOP_CATALOGS } from './desktop-locale';

/**
 * The desktop app's screens. The accounts keep the web's `/dashboard` path, where the shared
 * sign-in form and session guard send the user; anything else goes there too. Each screen names
 * the message catalogues it shows.
 */
const routes: RouteObject[] = [
  {
    element: (
      <PageErrorBoundary>
        <Outlet />
      </PageErrorBoundary>
    ),
    children: [
      {
        path: '/login',
        element: (
          <Catalogs namespaces={DESKTOP_CATALOGS.signIn}>
            <SignInPage />
          </Catalogs>
        ),
      },
      {
        path: '/settings',
        element: (
          <Catalogs namespaces={DESKTOP_CATALOGS.settings}>
            <SettingsPage />
          </Catalogs>
        ),
      },
      {
        element: <RequireSession />,
        children: [
          {
            path: '/dashboard',
            element: (
              <Catalogs namespaces={DESKTOP_CATALOGS.accounts}>
                <AccountsPage />
              </Catalogs>
            ),
          },
        ],
      },
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];

export function DesktopRoutes() {
  return useRoutes(routes);
}
