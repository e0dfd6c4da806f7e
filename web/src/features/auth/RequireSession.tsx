import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { Role } from '../../../../shared/auth.js';
import { Loading } from '../../components/Loading';
import { useAuth } from './auth-context';

interface RequireSessionProps {
  /** Roles allowed in; any signed-in user when omitted. */
  roles?: readonly Role[];
}

/** Where sign-in sends a visitor who was stopped here: back to this page (the dashboard needs no mention). */
function loginPathFor(pathname: string, search: string): string {
  const here = `${pathname}${search}`;
  return here === '/dashboard' ? '/login' : `/login?${new URLSearchParams({ next: here })}`;
}

/**
 * Layout route guard: signed-out visitors go to /login (and come back here once signed in), a role
 * not allowed goes to /dashboard.
 */
export function RequireSession({ roles }: RequireSessionProps) {
  const { user, loading } = useAuth();
  const { pathname, search } = useLocation();

  if (loading) return <Loading />;
  if (!user) return <Navigate to={loginPathFor(pathname, search)} replace />;
  if (roles && !roles.includes(user.role)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
