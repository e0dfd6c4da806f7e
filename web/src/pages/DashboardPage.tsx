import { useAuth } from '../features/auth/auth-context';

export default function DashboardPage() {
  const { user } = useAuth();

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">My VPN Accounts</h1>
      {user && <p className="mt-2 break-words text-slate-600">Welcome back, {user.email}</p>}
    </div>
  );
}
