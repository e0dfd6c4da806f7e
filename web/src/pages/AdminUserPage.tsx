import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { VpnAccount } from '../../../shared/accounts.js';
import type { AdminTransaction } from '../../../shared/billing.js';
import type { AdminUserPage as UserPageData } from '../../../shared/users.js';
import { api } from '../api';
import { adminApi } from '../api/admin-endpoints';
import { Loading } from '../components/Loading';
import { messageOrFallback } from '../features/accounts/error-message';
import { useAuth } from '../features/auth/auth-context';
import { formatAmount } from '../features/billing/billing-format';
import { AdminTable, Cell } from '../features/admin/AdminTable';
import { AlertBox } from '../features/admin/AlertBox';
import { formatDateTime } from '../features/admin/admin-format';
import { buttonClass, rowButtonClass } from '../features/admin/admin-ui';
import { ConfirmDialog } from '../features/admin/ConfirmDialog';
import { RefundDialog } from '../features/admin/RefundDialog';
import { UserAccountsSection, type AccountActions } from '../features/admin/user-page/UserAccountsSection';
import { useToast } from '../features/toast/toast-context';

/** One customer in one place: accounts (with their actions), subscriptions, payments, sessions and the audit log. */
export default function AdminUserPage() {
  const { id = '' } = useParams();
  const toast = useToast();
  const { user: me, refreshUser } = useAuth();
  const [data, setData] = useState<UserPageData | null>(null);
  const [failed, setFailed] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirmSignOut, setConfirmSignOut] = useState(false);
  const [refunding, setRefunding] = useState<AdminTransaction | null>(null);

  const load = useCallback(async (signal?: AbortSignal) => {
    try {
      setData(await adminApi.users.page(id, signal));
      setFailed(false);
    } catch {
      if (!signal?.aborted) setFailed(true);
    }
  }, [id]);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  /** Runs one action with its row busy, reports it, and reloads the page (the audit log shows it too). */
  async function act(key: string, success: string, failure: string, action: () => Promise<unknown>): Promise<void> {
    setBusyId(key);
    try {
      await action();
      toast.success(success);
      await load();
    } catch (caught) {
      toast.error(messageOrFallback(caught, failure));
      throw caught;
    } finally {
      setBusyId(null);
    }
  }
  const quietly = (work: Promise<void>) => work.catch(() => undefined);

  const accountActions: AccountActions = {
    extend: (account, body) => act(account.id, `${account.username} extended`, 'Failed to extend the account', () => adminApi.accounts.extend(account.id, body)),
    resetUsage: (account: VpnAccount) => quietly(act(account.id, `Usage of ${account.username} reset`, 'Failed to reset usage', () => adminApi.accounts.resetUsage(account.id))),
    setEnabled: (account, enabled) =>
      quietly(act(account.id, `${account.username} ${enabled ? 'enabled' : 'disabled'}`, `Failed to ${enabled ? 'enable' : 'disable'} the account`, () => adminApi.accounts.setEnabled(account.id, enabled))),
    remove: (account) => quietly(act(account.id, `${account.username} deleted`, 'Failed to delete the account', () => adminApi.accounts.remove(account.id))),
  };

  if (failed) return <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6"><AlertBox>Failed to load this user. They may have been deleted.</AlertBox></div>;
  if (!data) return <Loading />;
  const { user } = data;
  const makeRole = user.role === 'admin' ? 'user' : 'admin';

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-10 sm:px-6">
      <div>
        <Link to="/admin" className="text-sm font-medium text-indigo-700 hover:underline">← All users</Link>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight break-all text-slate-900">{user.email}</h1>
            <p className="text-sm text-slate-600">
              {user.role === 'admin' ? 'Admin' : 'Customer'} · joined {formatDateTime(user.createdAt)} · trial {user.trialUsed ? 'used' : 'not used'}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={busyId === 'role' || (user.id === me?.id && makeRole === 'user')}
              className={buttonClass.secondary}
              onClick={() => void quietly(act('role', makeRole === 'admin' ? 'Now an admin' : 'No longer an admin', 'Failed to update user', async () => {
                await api.admin.updateUser(user.id, { role: makeRole });
                if (user.id === me?.id) await refreshUser();
              }))}
            >
              {makeRole === 'admin' ? 'Make admin' : 'Remove admin'}
            </button>
            <button type="button" className={buttonClass.danger} onClick={() => setConfirmSignOut(true)}>Sign out everywhere</button>
          </div>
        </div>
      </div>

      <UserAccountsSection accounts={data.accounts} busyId={busyId} actions={accountActions} />

      <section aria-labelledby="user-payments" className="space-y-3">
        <h2 id="user-payments" className="text-lg font-semibold text-slate-900">Payments</h2>
        <AdminTable caption="Payments" columns={['Date', 'Plan', 'Amount', 'Status', 'Actions']} isEmpty={data.transactions.length === 0} emptyText="No payments.">
          {data.transactions.map((transaction) => (
            <tr key={transaction.id}>
              <Cell className="whitespace-nowrap text-slate-700">{formatDateTime(transaction.createdAt)}</Cell>
              <Cell>{transaction.planName}</Cell>
              <Cell className="whitespace-nowrap">
                {formatAmount(transaction.amount, transaction.currency)}
                {transaction.amountRefunded > 0 && <span className="block text-xs text-slate-500">{formatAmount(transaction.amountRefunded, transaction.currency)} refunded</span>}
              </Cell>
              <Cell className="capitalize">{transaction.status.replace('_', ' ')}</Cell>
              <Cell>
                {transaction.refundable && (
                  <button type="button" className={rowButtonClass.danger} onClick={() => setRefunding(transaction)} aria-label={`Refund the payment of ${formatDateTime(transaction.createdAt)}`}>
                    Refund
                  </button>
                )}
              </Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="user-subscriptions" className="space-y-3">
        <h2 id="user-subscriptions" className="text-lg font-semibold text-slate-900">Subscriptions</h2>
        <AdminTable caption="Subscriptions" columns={['Plan', 'Status', 'Paid until', 'Renews']} isEmpty={data.subscriptions.length === 0} emptyText="No subscriptions.">
          {data.subscriptions.map((subscription) => (
            <tr key={subscription.id}>
              <Cell>{subscription.planName}</Cell>
              <Cell className="capitalize">{subscription.status.replace('_', ' ')}</Cell>
              <Cell className="whitespace-nowrap">{subscription.currentPeriodEnd ? formatDateTime(subscription.currentPeriodEnd) : '—'}</Cell>
              <Cell>{subscription.autoRenews ? `Yes, ${formatDateTime(subscription.renewsAt)}` : 'No'}</Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="user-sessions" className="space-y-3">
        <h2 id="user-sessions" className="text-lg font-semibold text-slate-900">Signed-in sessions</h2>
        <AdminTable caption="Signed-in sessions" columns={['Signed in', 'Last used', 'App', 'Address']} isEmpty={data.sessions.length === 0} emptyText="Not signed in anywhere.">
          {data.sessions.map((session) => (
            <tr key={session.id}>
              <Cell className="whitespace-nowrap">{formatDateTime(session.createdAt)}</Cell>
              <Cell className="whitespace-nowrap">{formatDateTime(session.lastUsedAt)}</Cell>
              <Cell>
                {session.client === 'desktop' ? 'Desktop app' : 'Browser'}
                {session.userAgent && <span className="block max-w-64 truncate text-xs text-slate-500" title={session.userAgent}>{session.userAgent}</span>}
              </Cell>
              <Cell>{session.ip ?? '—'}</Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="user-audit" className="space-y-3">
        <h2 id="user-audit" className="text-lg font-semibold text-slate-900">Audit log</h2>
        <AdminTable caption="Audit log" columns={['When', 'Action', 'By', 'Details']} isEmpty={data.audit.length === 0} emptyText="Nothing recorded yet.">
          {data.audit.map((entry, index) => (
            <tr key={`${entry.createdAt}-${index}`}>
              <Cell className="whitespace-nowrap">{formatDateTime(entry.createdAt)}</Cell>
              <Cell className="whitespace-nowrap font-medium text-slate-900">{entry.action}</Cell>
              <Cell>{entry.actorEmail ?? 'system'}</Cell>
              <Cell className="max-w-96 text-xs break-all text-slate-600">{JSON.stringify(entry.details)}</Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      {confirmSignOut && (
        <ConfirmDialog
          title="Sign out everywhere"
          message={`Every session of ${user.email} ends now, in the browser and the desktop app. They can sign in again with a new code.`}
          confirmLabel="Sign out everywhere"
          busyLabel="Signing out..."
          busy={busyId === 'sessions'}
          onConfirm={() => void quietly(act('sessions', 'Signed out everywhere', 'Failed to sign the user out', () => adminApi.users.signOutEverywhere(user.id))).finally(() => setConfirmSignOut(false))}
          onCancel={() => setConfirmSignOut(false)}
        />
      )}
      {refunding && (
        <RefundDialog
          transaction={refunding}
          onClose={() => setRefunding(null)}
          onRefund={async (body) => {
            await act(refunding.id, 'Payment refunded', 'Failed to refund the payment', () => adminApi.payments.refund(refunding.id, body));
            setRefunding(null);
          }}
        />
      )}
    </div>
  );
}
