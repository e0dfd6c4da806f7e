import { adminTabAt } from '../../../../../shared/admin-tabs.js';

/** What a link to a customer's page carries in its history entry: the admin list it was opened from, with its query. */
export interface UserPageState {
  from: string;
}

/** The state for a link from the list at `location` (the Users tab with its search and filters) to a customer's page. */
export function userPageState(location: { pathname: string; search: string }): UserPageState {
  return { from: `${location.pathname}${location.search}` };
}

/**
 * Where the customer page's own "back" link goes: the admin tab it was opened from, as it was (its
 * search and filters); the Users tab when it was opened some other way (a link, the address bar).
 * Only an admin tab's path is taken from the history entry.
 */
export function userPageBackPath(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as Partial<UserPageState>).from : undefined;
  if (typeof from !== 'string') return '/admin/users';
  const [pathname = ''] = from.split(/[?#]/, 1);
  return adminTabAt(pathname) ? from : '/admin/users';
}
