import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AdminServer } from '../../../shared/servers.js';
import { adminApi } from '../api/admin-endpoints';
import { accountApi, type CustomAccountInput } from '../api/account-endpoints';
import { Loading } from '../components/Loading';
import { CustomAccountForm } from '../features/accounts/CustomAccountForm';
import { messageOrFallback } from '../features/accounts/error-message';
import { useToast } from '../features/toast/toast-context';

/** The spec's custom-account messages (ACCOUNT_UI_MESSAGES' English), as admin message ids. */
const MESSAGES = {
  created: 'admin.create.created',
  failed: 'admin.create.failed',
  serversFailed: 'admin.create.serversFailed',
} as const;

type ServersState = { status: 'loading' } | { status: 'loaded'; servers: AdminServer[] } | { status: 'failed' };

/** Admin only: a VPN account with a chosen server, data limit and lifetime, for a customer found by e-mail (or the admin). */
export default function CreateAccountPage() {
  const { _ } = useLingui();
  const navigate = useNavigate();
  const toast = useToast();
  const [serversState, setServersState] = useState<ServersState>({ status: 'loading' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    accountApi.admin
      .listServers(controller.signal)
      .then((servers) => setServersState({ status: 'loaded', servers: servers.filter((server) => server.status === 'active') }))
      .catch(() => {
        if (!controller.signal.aborted) setServersState({ status: 'failed' });
      });
    return () => controller.abort();
  }, []);

  async function create({ customerEmail, ...input }: Omit<CustomAccountInput, 'userId'> & { customerEmail: string }) {
    setBusy(true);
    setError(null);
    try {
      let userId: string | undefined;
      if (customerEmail) {
        const [customer] = await adminApi.users.list({ q: customerEmail, limit: 1 });
        if (customer?.email !== customerEmail.toLowerCase()) {
          setError(_('admin.create.noCustomer', { email: customerEmail }));
          setBusy(false);
          return;
        }
        userId = customer.id;
      }
      await accountApi.admin.createAccount({ ...input, ...(userId ? { userId } : {}) });
      toast.success(_(MESSAGES.created));
      // A customer's account shows on their page; the admin's own on the dashboard.
      void navigate(userId ? `/admin/users/${encodeURIComponent(userId)}` : '/dashboard');
    } catch (caught) {
      setError(messageOrFallback(caught, _(MESSAGES.failed)));
      setBusy(false);
    }
  }

  const shownError = error ?? (serversState.status === 'failed' ? _(MESSAGES.serversFailed) : null);

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{_('admin.create.title')}</h1>
      <p className="mt-2 text-slate-600">{_('admin.create.intro')}</p>
      <div className="mt-8 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        {shownError && (
          <div role="alert" className="mb-5 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm break-words text-red-800">
            {shownError}
          </div>
        )}
        {serversState.status === 'loading' && <Loading className="py-8" />}
        {serversState.status === 'loaded' && serversState.servers.length === 0 && (
          <p className="mb-5 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">{_('admin.create.noServer')}</p>
        )}
        {serversState.status === 'loaded' && <CustomAccountForm servers={serversState.servers} busy={busy} onSubmit={(input) => void create(input)} />}
      </div>
    </div>
  );
}
