import { Suspense, type ReactNode } from 'react';
import { Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { Loading } from '../components/Loading';
import { RequireSession } from '../features/auth/RequireSession';
import { lazyPage, type LazyPage } from './lazy-page';
import { PageErrorBoundary } from './PageErrorBoundary';
import { PLATFORMS, type Platform } from '../../../shared/platforms.js';

/** Every page is its own chunk, so a visitor downloads only the page in front of them. */
const pages = {
  '/': lazyPage(() => import('../pages/LandingPage')),
  '/login': lazyPage(() => import('../pages/LoginPage')),
  '/pricing': lazyPage(() => import('../pages/pricing/PricingPage')),
  '/features/locations': lazyPage(() => import('../pages/features/LocationsPage')),
  '/features/threat-protection': lazyPage(() => import('../pages/features/ThreatProtectionPage')),
  '/features/multiple-devices': lazyPage(() => import('../pages/features/MultipleDevicesPage')),
  '/features/high-speed-vpn': lazyPage(() => import('../pages/features/HighSpeedVpnPage')),
  '/features/money-back-guarantee': lazyPage(() => import('../pages/features/MoneyBackGuaranteePage')),
  '/features/no-tracking': lazyPage(() => import('../pages/features/NoTrackingPage')),
  '/why-trust-us/open-source': lazyPage(() => import('../pages/trust/OpenSourcePage')),
  '/why-trust-us/anonymous-accounts': lazyPage(() => import('../pages/trust/AnonymousAccountsPage')),
  '/why-trust-us/code-transparency': lazyPage(() => import('../pages/trust/CodeTransparencyPage')),
  '/why-trust-us/crypto-payment': lazyPage(() => import('../pages/trust/CryptoPaymentPage')),
  '/privacy': lazyPage(() => import('../pages/legal/PrivacyPage')),
  '/terms': lazyPage(() => import('../pages/legal/TermsPage')),
  '/cookies': lazyPage(() => import('../pages/legal/CookiesPage')),
  '/gdpr': lazyPage(() => import('../pages/legal/GdprPage')),
  '/support': lazyPage(() => import('../pages/support/SupportPage')),
  '/help': lazyPage(() => import('../pages/support/HelpPage')),
  '/contact': lazyPage(() => import('../pages/support/ContactPage')),
  '/status': lazyPage(() => import('../pages/support/StatusPage')),
  '/setup': lazyPage(() => import('../pages/SetupPage')),
  '/dashboard': lazyPage(() => import('../pages/DashboardPage')),
  '/thank-you': lazyPage(() => import('../pages/ThankYouPage')),
  '/admin': lazyPage(() => import('../pages/AdminPage')),
  '/create': lazyPage(() => import('../pages/CreateAccountPage')),
  '*': lazyPage(() => import('../pages/NotFoundPage')),
} satisfies Record<string, LazyPage>;

const downloadPage = lazyPage<{ platform: Platform }>(() => import('../pages/download/DownloadPage'));
/** The admin's page of one customer (`/admin/users/:id`). */
const adminUserPage = lazyPage(() => import('../pages/AdminUserPage'));

type PagePath = keyof typeof pages;

/** Pages behind a session guard (the rest are public). */
const GUARDED = new Set<PagePath>(['/dashboard', '/thank-you', '/admin', '/create']);

function show(path: PagePath): ReactNode {
  const { Component } = pages[path];
  return <Component />;
}

/** Aliases: another path that shows the same page. */
const ALIASES: Record<string, PagePath> = { '/server-status': '/status' };

const routeObjects: RouteObject[] = [
  {
    element: (
      <PageErrorBoundary>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </PageErrorBoundary>
    ),
    children: [
      ...(Object.keys(pages) as PagePath[])
        .filter((path) => !GUARDED.has(path))
        .map((path) => ({ path, element: show(path) })),
      ...Object.entries(ALIASES).map(([path, target]) => ({ path, element: show(target) })),
      ...PLATFORMS.map((platform) => ({ path: `/download/${platform}`, element: <downloadPage.Component platform={platform} /> })),
      {
        element: <RequireSession />,
        children: [
          { path: '/dashboard', element: show('/dashboard') },
          { path: '/thank-you', element: show('/thank-you') },
        ],
      },
      {
        element: <RequireSession roles={['admin']} />,
        children: [
          { path: '/admin', element: show('/admin') },
          { path: '/admin/users/:id', element: <adminUserPage.Component /> },
          { path: '/create', element: show('/create') },
        ],
      },
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routeObjects);
}

/**
 * Loads the chunk of the page at `pathname` before the first render, so hydrating a prerendered
 * page finds its component ready and keeps the server's HTML.
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path.startsWith('/download/')) return downloadPage.preload();
  const page = pages[(ALIASES[path] ?? path) as PagePath] ?? pages['*'];
  return page.preload();
}
