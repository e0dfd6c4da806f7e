import { useLingui } from '@lingui/react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { ROLES, type Role } from '../../../../shared/auth.js';
import { USERS_PAGE, type AdminUser, type UsersFilter } from '../../../../shared/users.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { useFormat } from '../../i18n/format';
import { useAuth } from '../auth/auth-context';
import { useToast } from '../toast/toast-context';
import { buttonClass } from './admin-ui';
import { useCellLabels } from './AdminTable';
import { useDebouncedValue } from './useDebouncedValue';
import { usersFilterFrom, usersQueryFor } from './users-query';
import { userPageState } from './user-page/user-page-return';
import { customerName } from '../../components/header/customer-name';
import { can } from '../../../../shared/staff.js';
import { ROLE_LABEL_IDS, roleChangeErrorId } from './staff/role-labels';

const MESSAGES = {
  loadFailed: 'admin.users.loadFailed',
  moreFailed: 'admin.users.moreFailed',
  updated: 'admin.users.updated',
  updateFailed: 'admin.users.updateFailed',
} as const;

const SEARCH_DEBOUNCE_MS = 300;

type LoadState = 'loading' | 'loaded' | 'failed';

const FIELD =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none';

/**
 * Lists users a page at a time, newest first (or by e-mail when searching: a whole address finds that
 * user, anything else the addresses starting with it), narrowed by role, an active account or a past-due
 * subscription; an admin changes a user's role here.
 */
export function UsersTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const tableRef = useCellLabels();
  const format = useFormat();
  const id = useId();
  const toast = useToast();
  const { user: me, refreshUser } = useAuth();
  // Only the owner changes roles (the Staff section); everyone else sees them.
  const canChangeRoles = can(me?.role, 'staff.manage');
  const location = useLocation();
  // The search and filters live in the URL (users-query.ts): typing replaces the entry, a filter adds one.
  const [searchParams, setSearchParams] = useSearchParams();
  const { q: query, ...filter } = usersFilterFrom(searchParams);
  const debouncedQuery = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  // The query as last set here: a filter picked right after typing keeps what was typed even before the
  // router has rendered it (this render's `searchParams` can be one change behind; a stale one dropped the search).
  const latestParams = useRef(searchParams);
  useLayoutEffect(() => {
    latestParams.current = searchParams;
  }, [searchParams]);
  const updateQuery = (change: (current: ReturnType<typeof usersFilterFrom>) => UsersFilter, replace: boolean) => {
    const next = usersQueryFor(change(usersFilterFrom(latestParams.current)));
    latestParams.current = next;
    setSearchParams(next, { replace });
  };
  const setQuery = (q: string) => updateQuery((current) => ({ ...current, q }), true);
  const setFilter = (change: (current: Omit<UsersFilter, 'q'>) => Omit<UsersFilter, 'q'>) =>
    updateQuery(({ q, ...current }) => ({ ...change(current), q }), false);
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadState, setLoadState] = useState<LoadState>('loading');
  const [savingIds, setSavingIds] = useState<ReadonlySet<string>>(new Set());
  const { role, active, pastDue } = filter;

  useEffect(() => {
    const controller = new AbortController();
    setLoadState('loading');
    adminApi.users
      .list({ q: debouncedQuery, role, active, pastDue }, controller.signal)
      .then((list) => {
        setUsers(list);
        setHasMore(list.length === USERS_PAGE.default);
        setLoadState('loaded');
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoadState('failed');
      });
    return () => controller.abort();
  }, [debouncedQuery, role, active, pastDue, refreshKey]);

  async function loadMore() {
    const last = users.at(-1);
    if (!last) return;
    setLoadingMore(true);
    try {
      const page = await adminApi.users.list({ q: debouncedQuery, role, active, pastDue, after: last.id });
      setUsers((list) => [...list, ...page.filter((user) => !list.some((known) => known.id === user.id))]);
      setHasMore(page.length === USERS_PAGE.default);
    } catch {
      toast.error(_(MESSAGES.moreFailed));
    } finally {
      setLoadingMore(false);
    }
  }

  async function changeRole(target: AdminUser, role: Role) {
    setSavingIds((ids) => new Set(ids).add(target.id));
    try {
      const updated = await adminApi.users.update(target.id, { role });
      setUsers((list) => list.map((user) => (user.id === updated.id ? updated : user)));
      toast.success(_(MESSAGES.updated));
      if (updated.id === me?.id) await refreshUser();
    } catch (error) {
      toast.error(_(roleChangeErrorId(error, MESSAGES.updateFailed)));
    } finally {
      setSavingIds((ids) => {
        const next = new Set(ids);
        next.delete(target.id);
        return next;
      });
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-full max-w-sm">
          <label htmlFor={`${id}-search`} className="block text-sm font-medium text-slate-700">
            {_('admin.users.search')}
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={_('admin.users.searchPlaceholder')}
            className={FIELD}
          />
        </div>
        <div>
          <label htmlFor={`${id}-role`} className="block text-sm font-medium text-slate-700">
            {_('admin.users.role')}
          </label>
          <select
            id={`${id}-role`}
            value={role ?? ''}
            onChange={(event) => setFilter((current) => ({ ...current, role: (event.target.value || undefined) as Role | undefined }))}
            className={FIELD}
          >
            <option value="">{_('admin.users.anyRole')}</option>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {_(ROLE_LABEL_IDS[value])}
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={active ?? false}
            onChange={(event) => setFilter((current) => ({ ...current, active: event.target.checked || undefined }))}
          />
          {_('admin.users.hasActive')}
        </label>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={pastDue ?? false}
            onChange={(event) => setFilter((current) => ({ ...current, pastDue: event.target.checked || undefined }))}
          />
          {_('admin.users.pastDue')}
        </label>
      </div>

      {loadState === 'failed' && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {_(MESSAGES.loadFailed)}
        </div>
      )}

      {loadState === 'loading' && users.length === 0 ? (
        <Loading />
      ) : (
        <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200" aria-busy={loadState === 'loading'}>
          <table ref={tableRef} className="admin-table min-w-full divide-y divide-slate-200 text-start text-sm">
            <caption className="sr-only">{_('admin.users.caption')}</caption>
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {_('admin.users.column.email')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {_('admin.users.column.role')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {_('admin.users.column.trialUsed')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {_('admin.users.column.created')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {users.map((user) => (
                <tr key={user.id}>
                  <td className="px-4 py-3 font-medium whitespace-nowrap text-slate-900">
                    <Link to={`/admin/users/${encodeURIComponent(user.id)}`} state={userPageState(location)} className="text-indigo-700 hover:underline">
                      {customerName(user, _)}
                    </Link>
                  </td>
                  <td className="px-4 py-3">
                    {!canChangeRoles ? (
                      _(ROLE_LABEL_IDS[user.role])
                    ) : (
                      <select
                        aria-label={_('admin.users.roleFor', { email: customerName(user, _) })}
                        value={user.role}
                        disabled={savingIds.has(user.id)}
                        onChange={(event) => void changeRole(user, event.target.value as Role)}
                        className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none disabled:opacity-60"
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {_(ROLE_LABEL_IDS[role])}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td className="px-4 py-3 text-slate-700">{user.trialUsed ? _('admin.common.yes') : _('admin.common.no')}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700">{format.date(user.createdAt)}</td>
                </tr>
              ))}
              {loadState === 'loaded' && users.length === 0 && (
                <tr>
                  <td colSpan={4} className="px-4 py-8 text-center text-slate-500">
                    {_('admin.users.empty')}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {hasMore && loadState === 'loaded' && (
        <button type="button" onClick={() => void loadMore()} disabled={loadingMore} className={buttonClass.secondary}>
          {loadingMore ? _('admin.users.loadingMore') : _('admin.users.loadMore')}
        </button>
      )}
    </div>
  );
}
