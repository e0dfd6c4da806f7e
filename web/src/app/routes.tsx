import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import { Loading } from '../components/Loading';
import { RequireSession } from '../features/auth/RequireSession';
import { DashboardPage } from '../pages/DashboardPage';
import { LandingPage } from '../pages/LandingPage';
import { LoginPage } from '../pages/LoginPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RootLayout } from './RootLayout';
import { RouteErrorScreen } from './RouteErrorScreen';
import type { RouteHandle } from './route-handle';

const handle = (value: RouteHandle): RouteHandle => value;

/** Admin screens load on demand: visitors never download them (nor zod, which they use). */
const AdminPage = lazy(() => import('../pages/AdminPage').then((module) => ({ default: module.AdminPage })));

/**
 * The app's routes, kept apart from the browser router so a build step can prerender the public
 * ones with `createStaticHandler(routes)` and the client can hydrate them.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    children: [
      {
        // Errors inside a page keep the header and footer around the error screen.
        errorElement: <RouteErrorScreen />,
        children: [
          { index: true, element: <LandingPage />, handle: handle({}) },
          { path: 'login', element: <LoginPage />, handle: handle({ title: 'Sign In' }) },
          {
            element: <RequireSession />,
            children: [{ path: 'dashboard', element: <DashboardPage />, handle: handle({ title: 'My VPN Accounts' }) }],
          },
          {
            element: <RequireSession roles={['admin']} />,
            children: [
              {
                path: 'admin',
                element: (
                  <Suspense fallback={<Loading />}>
                    <AdminPage />
                  </Suspense>
                ),
                handle: handle({ title: 'Admin Panel' }),
              },
            ],
          },
          { path: '*', element: <NotFoundPage />, handle: handle({ title: 'Page Not Found' }) },
        ],
      },
    ],
  },
];
