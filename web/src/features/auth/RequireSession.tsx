import { Navigate, Outlet } from 'react-router-dom';
import type { Role } from '../../../../shared/auth.js';
import { Loading } from '../../components/Loading';
import { useAuth } from './auth-context';

interface RequireSessionProps {
  /** Roles allowed in; any signed-in user when omitted. */
  roles?: readonly Role[];
}

/** Layout route guard: signed-out visitors go to /login, a role not allowed goes to /dashboard. */
export function RequireSession({ roles }: RequireSessionProps) {
  const { user, loading } = useAuth();

  if (loading) return <Loading />;
  if (!user) return <Navigate to="/login" replace />;
  if (roles && !roles.includes(user.role)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
