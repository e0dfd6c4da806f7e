import { Suspense, type ComponentType, type ReactNode } from 'react';
import { Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { Loading } from '../components/Loading';
import { RequireSession } from '../features/auth/RequireSession';
import { lazyPage, type LazyPage } from './lazy-page';
import type { Namespace } from '../i18n/catalogs';
import { PageErrorBoundary } from './PageErrorBoundary';
import { PLATFORMS, type Platform } from '../../../shared/platforms.js';
import { splitLocalePath, type Locale } from '../../../shared/locales.js';
import { ADMIN_TAB_IDS, adminTabAt } from '../../../shared/admin-tabs.js';
import { STAFF_ROLES } from '../../../shared/auth.js';

/** The page modules (every `…Page.tsx` under web/src/pages): each its own chunk, so a visitor downloads only the page in front of them. */
const PAGE_MODULES = import.meta.glob<{ default: ComponentType<never> }>('../pages/**/*Page.tsx');

/** The page in web/src/pages/`name`.tsx, with the catalogues it shows. */
function page<P extends object = object>(name: string, namespaces: readonly Namespace[]): LazyPage<P> {
  const load = PAGE_MODULES[`../pages/${name}.tsx`] as (() => Promise<{ default: ComponentType<P> }>) | undefined;
  if (!load) throw new Error(`No page module web/src/pages/${name}.tsx`);
  return lazyPage(load, namespaces, `src/pages/${name}.tsx`);
}

const pages = {
  '/': page('LandingPage', ['landing', 'login']),
  '/login': page('LoginPage', ['login']),
  '/pricing': page('pricing/PricingPage', ['pricing']),
  '/features/locations': page('features/LocationsPage', ['features', 'content']),
  '/features/threat-protection': page('features/ThreatProtectionPage', ['features', 'content']),
  '/features/multiple-devices': page('features/MultipleDevicesPage', ['features', 'content']),
  '/features/high-speed-vpn': page('features/HighSpeedVpnPage', ['features', 'content']),
  '/features/money-back-guarantee': page('features/MoneyBackGuaranteePage', ['features', 'content']),
  '/features/no-tracking': page('features/NoTrackingPage', ['features', 'content']),
  '/why-trust-us/open-source': page('trust/OpenSourcePage', ['trust', 'content']),
  '/why-trust-us/anonymous-accounts': page('trust/AnonymousAccountsPage', ['trust', 'content']),
  '/why-trust-us/code-transparency': page('trust/CodeTransparencyPage', ['trust', 'content']),
  '/why-trust-us/crypto-payment': page('trust/CryptoPaymentPage', ['trust', 'content']),
  '/privacy': page('legal/PrivacyPage', ['legal', 'content']),
  '/terms': page('legal/TermsPage', ['legal', 'content']),
  '/cookies': page('legal/CookiesPage', ['legal', 'content']),
  '/gdpr': page('legal/GdprPage', ['legal', 'content']),
  '/support': page('support/SupportPage', ['support', 'content']),
  '/help': page('support/HelpPage', ['support', 'content']),
  '/contact': page('support/ContactPage', ['support', 'content']),
  '/status': page('support/StatusPage', ['support', 'content']),
  '/setup': page('SetupPage', ['account', 'content']),
  '/dashboard': page('DashboardPage', ['account', 'pricing']),
  '/thank-you': page('ThankYouPage', ['account', 'content']),
  '/referrals': page('ReferralsPage', ['account']),
  '/wallet': page('WalletPage', ['account', 'pricing']),
  '/admin': page('AdminPage', ['admin', 'adminSettings', 'account']),
  '/create': page('CreateAccountPage', ['admin', 'account']),
  '*': page('NotFoundPage', ['content']),
} satisfies Record<string, LazyPage>;

const downloadPage = page<{ platform: Platform }>('download/DownloadPage', ['download', 'content']);
/** The admin's page of one customer (`/admin/users/:id`). */
const adminUserPage = page('AdminUserPage', ['admin', 'adminSettings', 'account']);
/** A payment link from the Telegram bot (`/pay/:token`): signs its customer in, then the dashboard's checkout. */
const payLinkPage = page('PayLinkPage', ['login']);

type PagePath = keyof typeof pages;

/** Pages behind a session guard (the rest are public). */
const GUARDED = new Set<PagePath>(['/dashboard', '/thank-you', '/referrals', '/wallet', '/admin', '/create']);

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
      ...(Object.keys(pages) as PagePath[]).filter((path) => !GUARDED.has(path)).map((path) => ({ path, element: show(path) })),
      ...Object.entries(ALIASES).map(([path, target]) => ({ path, element: show(target) })),
      ...PLATFORMS.map((platform) => ({ path: `/download/${platform}`, element: downloadPage.render({ platform }) })),
      { path: '/pay/:token', element: payLinkPage.render({}) },
      {
        element: <RequireSession />,
        children: [
          { path: '/dashboard', element: show('/dashboard') },
          { path: '/thank-you', element: show('/thank-you') },
          { path: '/referrals', element: show('/referrals') },
          { path: '/wallet', element: show('/wallet') },
        ],
      },
      {
        element: <RequireSession roles={STAFF_ROLES} />,
        children: [
          {
            // One page for every tab (it stays mounted as the admin moves between them); each tab is a path of
            // its own (`/admin/payments`), and any other `/admin/…` is the not-found page.
            path: '/admin',
            element: show('/admin'),
            // The Settings tab has a path for each section too (`/admin/settings/payments`).
            children: ADMIN_TAB_IDS.flatMap((tab): RouteObject[] =>
              tab === 'overview' ? [{ index: true }] : tab === 'settings' ? [{ path: tab }, { path: 'settings/:section' }] : [{ path: tab }],
            ),
          },
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

/** The page the app shows at `pathname` (without its language prefix), if it has one. */
function routedPage(pathname: string): LazyPage | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path.startsWith('/download/')) return downloadPage;
  if (path.startsWith('/admin/users/')) return adminUserPage;
  if (/^\/pay\/[^/]+$/.test(path)) return payLinkPage;
  if (adminTabAt(path)) return pages['/admin'];
  return path === '*' ? undefined : pages[(ALIASES[path] ?? path) as PagePath];
}

/** The page shown at `pathname` (without its language prefix); the not-found page for an unknown path. */
export function pageAt(pathname: string): LazyPage {
  return routedPage(pathname) ?? pages['*'];
}

/**
 * Starts loading a page's chunk and catalogues when the pointer rests on a link to it, a finger
 * touches it or focus reaches it, so the click usually finds them loaded. Links elsewhere (another
 * language, the server's own pages, other sites) are left alone.
 */
export function preloadPagesOnIntent(locale: Locale): void {
  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin || link.target === '_blank') return;
    const target = splitLocalePath(link.pathname);
    if (target.locale !== locale) return;
    // A failed preload is not an error: the click loads the page again.
    routedPage(target.path)
      ?.preload(locale)
      .catch(() => {});
  };
  for (const type of ['pointerover', 'touchstart', 'focusin']) document.addEventListener(type, onIntent, { passive: true });
}

/**
 * Loads the chunk and catalogues of the page at `pathname` (without its language prefix) before the first render, so hydrating a prerendered
 * page finds its component ready and keeps the server's HTML.
 */
export function preloadPage(pathname: string, locale: Locale): Promise<unknown> {
  return pageAt(pathname).preload(locale);
}
