import type { Role } from './auth.js';
import { can, type Permission } from './staff.js';

/**
 * The admin panel's tabs, in order, and the path of each: `/admin` is the overview, every other tab
 * `/admin/<tab>`. The router draws them and the server serves the app shell at them (site-pages.ts).
 */
export const ADMIN_TAB_IDS = [
  'overview',
  'users',
  'servers',
  'plans',
  'promotions',
  'payments',
  'settings',
  'telegram',
  'staff',
  'logs',
  'audit',
  'system',
] as const;

export type AdminTabId = (typeof ADMIN_TAB_IDS)[number];

/** What a staff member needs to see a tab (the server checks every request of it again: lib/staff-policy.ts). */
export const TAB_PERMISSIONS: Record<AdminTabId, Permission> = {
  overview: 'reports.read',
  users: 'customers.read',
  servers: 'catalogue.read',
  plans: 'catalogue.read',
  promotions: 'catalogue.read',
  payments: 'payments.read',
  settings: 'settings.read',
  telegram: 'settings.read',
  staff: 'staff.manage',
  logs: 'audit.read',
  audit: 'audit.read',
  system: 'settings.read',
};

/** The tabs someone with this role sees, in order. */
export function adminTabsFor(role: Role | undefined): AdminTabId[] {
  return ADMIN_TAB_IDS.filter((tab) => can(role, TAB_PERMISSIONS[tab]));
}

/** A tab's path, without the language prefix. */
export function adminTabPath(tab: AdminTabId): string {
  return tab === 'overview' ? '/admin' : `/admin/${tab}`;
}

/** `/admin/settings/<section>`: a section of the Settings tab (an unknown one opens the first). */
const SETTINGS_SECTION_PATH = /^\/admin\/settings\/[\w-]+$/;

/**
 * The tab at `pathname` (without the language prefix), or undefined when it is no tab's path. The Settings tab
 * has a path for each of its sections too (`/admin/settings/payments`: web/src/features/admin/settings-sections.ts).
 */
export function adminTabAt(pathname: string): AdminTabId | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (SETTINGS_SECTION_PATH.test(path)) return 'settings';
  return ADMIN_TAB_IDS.find((tab) => adminTabPath(tab) === path);
}
