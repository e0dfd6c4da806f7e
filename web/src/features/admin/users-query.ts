import { ROLES, type Role } from '../../../../shared/auth.js';
import type { UsersFilter } from '../../../../shared/users.js';

/**
 * The Users tab's search and filters as its URL's query (`/admin/users?q=ann&role=admin&active=true`),
 * named as the users API names them: a reload, Back from a user's page or a shared link keeps them.
 * A hand-written link may name one filter as `filter=` (`admin`, `user`, `active`, `pastDue`/`past_due`).
 */
export function usersFilterFrom(params: URLSearchParams): Required<Pick<UsersFilter, 'q'>> & Omit<UsersFilter, 'q'> {
  const filter = params.get('filter');
  const role = params.get('role') ?? filter;
  return {
    q: params.get('q') ?? '',
    role: ROLES.includes(role as Role) ? (role as Role) : undefined,
    active: params.get('active') === 'true' || filter === 'active' || undefined,
    pastDue: params.get('pastDue') === 'true' || filter === 'pastDue' || filter === 'past_due' || undefined,
  };
}

/** The query for `filter`: empty values are left out (`/admin/users` is the whole list). */
export function usersQueryFor(filter: UsersFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.role) params.set('role', filter.role);
  if (filter.active) params.set('active', 'true');
  if (filter.pastDue) params.set('pastDue', 'true');
  return params;
}
