import { Suspense, type ReactNode } from 'react';
import { Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { Loading } from '../components/Loading';
import { RequireSession } from '../features/auth/RequireSession';
import { lazyPage, type LazyPage } from './lazy-page';
import { PageErrorBoundary } from './PageErrorBoundary';
import { PLATFORMS, type Platform } from '../../../shared/platforms.js';
import type { Locale } from '../../../shared/locales.js';

/** Every page is its own chunk, so a visitor downloads only the page in front of them. */
const pages = {
  '/': lazyPage(() => import('../pages/LandingPage'), ['landing', 'login']),
  '/login': lazyPage(() => import('../pages/LoginPage'), ['login']),
  '/pricing': lazyPage(() => import('../pages/pricing/PricingPage'), ['pricing']),
  '/features/locations': lazyPage(() => import('../pages/features/LocationsPage'), ['features', 'content']),
  '/features/threat-protection': lazyPage(() => import('../pages/features/ThreatProtectionPage'), ['features', 'content']),
  '/features/multiple-devices': lazyPage(() => import('../pages/features/MultipleDevicesPage'), ['features', 'content']),
  '/features/high-speed-vpn': lazyPage(() => import('../pages/features/HighSpeedVpnPage'), ['features', 'content']),
  '/features/money-back-guarantee': lazyPage(() => import('../pages/features/MoneyBackGuaranteePage'), ['features', 'content']),
  '/features/no-tracking': lazyPage(() => import('../pages/features/NoTrackingPage'), ['features', 'content']),
  '/why-trust-us/open-source': lazyPage(() => import('../pages/trust/OpenSourcePage'), ['trust', 'content']),
  '/why-trust-us/anonymous-accounts': lazyPage(() => import('../pages/trust/AnonymousAccountsPage'), ['trust', 'content']),
  '/why-trust-us/code-transparency': lazyPage(() => import('../pages/trust/CodeTransparencyPage'), ['trust', 'content']),
  '/why-trust-us/crypto-payment': lazyPage(() => import('../pages/trust/CryptoPaymentPage'), ['trust', 'content']),
  '/privacy': lazyPage(() => import('../pages/legal/PrivacyPage'), ['legal', 'content']),
  '/terms': lazyPage(() => import('../pages/legal/TermsPage'), ['legal', 'content']),
  '/cookies': lazyPage(() => import('../pages/legal/CookiesPage'), ['legal', 'content']),
  '/gdpr': lazyPage(() => import('../pages/legal/GdprPage'), ['legal', 'content']),
  '/support': lazyPage(() => import('../pages/support/SupportPage'), ['support', 'content']),
  '/help': lazyPage(() => import('../pages/support/HelpPage'), ['support', 'content']),
  '/contact': lazyPage(() => import('../pages/support/ContactPage'), ['support', 'content']),
  '/status': lazyPage(() => import('../pages/support/StatusPage'), ['support', 'content']),
  '/setup': lazyPage(() => import('../pages/SetupPage'), ['account', 'content']),
  '/dashboard': lazyPage(() => import('../pages/DashboardPage'), ['account', 'pricing']),
  '/thank-you': lazyPage(() => import('../pages/ThankYouPage'), ['account', 'content']),
  '/admin': lazyPage(() => import('../pages/AdminPage'), ['admin', 'adminSettings', 'account']),
  '/create': lazyPage(() => import('../pages/CreateAccountPage'), ['admin', 'account']),
  '*': lazyPage(() => import('../pages/NotFoundPage'), ['content']),
} satisfies Record<string, LazyPage>;

const downloadPage = lazyPage<{ platform: Platform }>(() => import('../pages/download/DownloadPage'), ['download', 'content']);
/** The admin's page of one customer (`/admin/users/:id`). */
const adminUserPage = lazyPage(() => import('../pages/AdminUserPage'), ['admin', 'adminSettings', 'account']);

type PagePath = keyof typeof pages;

/** Pages behind a session guard (the rest are public). */
const GUARDED = new Set<PagePath>(['/dashboard', '/thank-you', '/admin', '/create']);

function show(path: PagePath): ReactNode {
  return pages[path].render({});
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
      ...PLATFORMS.map((platform) => ({ path: `/download/${platform}`, element: downloadPage.render({ platform }) })),
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
          { path: '/admin/users/:id', element: adminUserPage.render({}) },
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
 * Loads the chunk and catalogues of the page at `pathname` (without its language prefix) before the first render, so hydrating a prerendered
 * page finds its component ready and keeps the server's HTML.
 */
export function preloadPage(pathname: string, locale: Locale): Promise<unknown> {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path.startsWith('/download/')) return downloadPage.preload(locale);
  if (path.startsWith('/admin/users/')) return adminUserPage.preload(locale);
  const page = pages[(ALIASES[path] ?? path) as PagePath] ?? pages['*'];
  return page.preload(locale);
}
