/**
 * The admin panel's tabs, in order, and the path of each: `/admin` is the overview, every other tab
 * `/admin/<tab>`. The router draws them and the server serves the app shell at them (site-pages.ts).
 */
export const ADMIN_TAB_IDS = ['overview', 'users', 'servers', 'plans', 'promotions', 'payments', 'settings', 'telegram', 'logs', 'system'] as const;

export type AdminTabId = (typeof ADMIN_TAB_IDS)[number];

/** A tab's path, without the language prefix. */
export function adminTabPath(tab: AdminTabId): string {
  return tab === 'overview' ? '/admin' : `/admin/${tab}`;
}

/** The tab at `pathname` (without the language prefix), or undefined when it is no tab's path. */
export function adminTabAt(pathname: string): AdminTabId | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return ADMIN_TAB_IDS.find((tab) => adminTabPath(tab) === path);
}
