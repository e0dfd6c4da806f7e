import { Navigate, Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { PageErrorBoundary } from '../../../../web/src/app/PageErrorBoundary';
import { RequireSession } from '../../../../web/src/features/auth/RequireSession';
import { AccountsPage } from '../pages/AccountsPage';
import { SettingsPage } from '../pages/SettingsPage';
import { SignInPage } from '../pages/SignInPage';

/**
 * The desktop app's screens. The accounts keep the web's `/dashboard` path, where the shared
 * sign-in form and session guard send the user; anything else goes there too.
 */
const routes: RouteObject[] = [
  {
    element: (
      <PageErrorBoundary>
        <Outlet />
      </PageErrorBoundary>
    ),
    children: [
      { path: '/login', element: <SignInPage /> },
      { path: '/settings', element: <SettingsPage /> },
      { element: <RequireSession />, children: [{ path: '/dashboard', element: <AccountsPage /> }] },
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];

export function DesktopRoutes() {
  return useRoutes(routes);
}
