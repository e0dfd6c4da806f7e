import { useLingui } from '@lingui/react';
import { AuditEntryDetails } from '../features/admin/audit/AuditEntryDetails';
import { auditActionLabelId } from '../features/admin/audit/audit-labels';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { VpnAccount } from '../../../shared/accounts.js';
import type { AdminTransaction, SubscriptionStatus, TransactionStatus } from '../../../shared/billing.js';
import type { AdminUserPage as UserPageData, AdminUserTelegram } from '../../../shared/users.js';
import { adminApi } from '../api/admin-endpoints';
import { Loading } from '../components/Loading';
import { useFormat } from '../i18n/format';
import { useKeptPlanName } from '../features/plans/usePlanText';
import { messageOrFallback } from '../features/accounts/error-message';
import { useAuth } from '../features/auth/auth-context';
import { AdminTable, Cell } from '../features/admin/AdminTable';
import { AlertBox } from '../features/admin/AlertBox';
import { buttonClass, rowButtonClass } from '../features/admin/admin-ui';
import { ConfirmDialog } from '../features/admin/ConfirmDialog';
import { RefundDialog } from '../features/admin/RefundDialog';
import { UserAccountsSection, type AccountActions } from '../features/admin/user-page/UserAccountsSection';
import { UserWalletSection } from '../features/admin/user-page/UserWalletSection';
import { userPageBackPath } from '../features/admin/user-page/user-page-return';
import { useToast } from '../features/toast/toast-context';
import { customerName } from '../components/header/customer-name';
import { ROLES, type Role } from '../../../shared/auth.js';
import { can } from '../../../shared/staff.js';
import { ROLE_LABEL_IDS } from '../features/admin/staff/role-labels';

/** The role in the page's summary line: customers and admins as before, other staff by their role's name. */
const ROLE_NAME_IDS: Record<Role, string> = { ...ROLE_LABEL_IDS, user: 'admin.user.roleCustomer', admin: 'admin.user.roleAdmin' };

/** A payment's or subscription's status, lower case (the cell capitalises it). */
const STATUS_IDS: Record<TransactionStatus | SubscriptionStatus, string> = {
  pending: 'admin.user.status.pending',
  succeeded: 'admin.user.status.succeeded',
  failed: 'admin.user.status.failed',
  cancelled: 'admin.user.status.cancelled',
  needs_review: 'admin.user.status.needsReview',
  refunded: 'admin.user.status.refunded',
  disputed: 'admin.user.status.disputed',
  incomplete: 'admin.user.status.incomplete',
  active: 'admin.user.status.active',
  past_due: 'admin.user.status.pastDue',
  canceled: 'admin.user.status.canceled',
  ended: 'admin.user.status.ended',
};

const PAYMENT_COLUMN_IDS = ['admin.column.date', 'admin.column.plan', 'admin.column.amount', 'admin.column.status', 'admin.column.actions'] as const;
const SUBSCRIPTION_COLUMN_IDS = ['admin.column.plan', 'admin.column.status', 'admin.column.paidUntil', 'admin.column.renews'] as const;
const SESSION_COLUMN_IDS = ['admin.column.signedIn', 'admin.column.lastUsed', 'admin.column.app', 'admin.column.address'] as const;
const AUDIT_COLUMN_IDS = ['admin.column.when', 'admin.column.action', 'admin.column.by', 'admin.column.details'] as const;

/** One customer in one place: accounts (with their actions), subscriptions, payments, sessions and the audit log. */
/** The customer's linked Telegram: a link to the chat where it has a username, and whether they blocked the bot. */
function TelegramLine({ telegram }: { telegram: AdminUserTelegram }) {
  const { _ } = useLingui();
  const name = telegram.username ? `@${telegram.username}` : (telegram.firstName ?? String(telegram.id));
  return (
    <p className="text-sm text-slate-600">
      {_('admin.user.telegram')}{' '}
      {telegram.username ? (
        <a className="text-indigo-700 underline" href={`https://t.me/${telegram.username}`} target="_blank" rel="noreferrer">
          {name}
        </a>
      ) : (
        name
      )}{' '}
      · {_('admin.user.telegramId', { id: String(telegram.id) })}
      {telegram.blockedAt && <span className="text-red-700"> · {_('admin.user.telegramBlocked')}</span>}
    </p>
  );
}

export default function AdminUserPage() {
  const { _ } = useLingui();
  const format = useFormat();
  // Plan names as the customer reads them, in the page's language (the operator's translations).
  const planName = useKeptPlanName();
  const { id = '' } = useParams();
  // Back to the list this page was opened from, with its search and filters.
  const backPath = userPageBackPath(useLocation().state);
  const toast = useToast();
  const { user: me } = useAuth();
  const [data, setData] = useState<UserPageData | null>(null);
  const [failed, setFailed] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirmSignOut, setConfirmSignOut] = useState(false);
  const [refunding, setRefunding] = useState<AdminTransaction | null>(null);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setData(await adminApi.users.page(id, signal));
        setFailed(false);
      } catch {
        if (!signal?.aborted) setFailed(true);
      }
    },
    [id],
  );

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
  const columns = (ids: readonly string[]) => ids.map((column) => _(column));
  const statusText = (status: TransactionStatus | SubscriptionStatus) => (STATUS_IDS[status] ? _(STATUS_IDS[status]) : status.replace('_', ' '));

  const accountActions: AccountActions = {
    extend: (account, body) =>
      act(account.id, _('admin.user.extended', { username: account.username }), _('admin.user.extendFailed'), () => adminApi.accounts.extend(account.id, body)),
    resetUsage: (account: VpnAccount) =>
      quietly(
        act(account.id, _('admin.user.usageReset', { username: account.username }), _('admin.user.resetFailed'), () =>
          adminApi.accounts.resetUsage(account.id),
        ),
      ),
    setEnabled: (account, enabled) =>
      quietly(
        act(
          account.id,
          _(enabled ? 'admin.user.enabled' : 'admin.user.disabled', { username: account.username }),
          _(enabled ? 'admin.user.enableFailed' : 'admin.user.disableFailed'),
          () => adminApi.accounts.setEnabled(account.id, enabled),
        ),
      ),
    remove: (account) =>
      quietly(
        act(account.id, _('admin.user.deleted', { username: account.username }), _('admin.user.deleteFailed'), () => adminApi.accounts.remove(account.id)),
      ),
  };

  if (failed)
    return (
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <AlertBox>{_('admin.user.loadFailed')}</AlertBox>
      </div>
    );
  if (!data) return <Loading />;
  const { user } = data;
  const canChangeRole = can(me?.role, 'staff.manage') && user.id !== me?.id && user.email !== null;

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-10 sm:px-6">
      <div>
        <Link to={backPath} className="text-sm font-medium text-indigo-700 hover:underline">
          {_('admin.user.back')}
        </Link>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight break-all text-slate-900">{customerName(user, _)}</h1>
            <p className="text-sm text-slate-600">
              {_('admin.user.summary', {
                role: _(ROLE_NAME_IDS[user.role]),
                date: format.dateTime(user.createdAt),
                trial: _(user.trialUsed ? 'admin.user.trialUsed' : 'admin.user.trialNotUsed'),
              })}
            </p>
            {data.telegram && <TelegramLine telegram={data.telegram} />}
          </div>
          <div className="flex flex-wrap gap-2">
            {canChangeRole && (
              <select
                aria-label={_('admin.staff.roleFor', { email: user.email ?? '' })}
                value={user.role}
                disabled={busyId === 'role'}
                className={`${buttonClass.secondary} pe-8`}
                onChange={(event) =>
                  void quietly(
                    act('role', _('admin.staff.saved'), _('admin.staff.failed'), () =>
                      adminApi.staff.setRole({ email: user.email ?? '', role: event.target.value as Role }),
                    ),
                  )
                }
              >
                {ROLES.map((value) => (
                  <option key={value} value={value}>
                    {_(value === 'user' ? 'admin.staff.noRole' : ROLE_LABEL_IDS[value])}
                  </option>
                ))}
              </select>
            )}
            {user.email && can(me?.role, 'customers.write') && (
              <button
                type="button"
                disabled={busyId === 'code'}
                className={buttonClass.secondary}
                onClick={() => void quietly(act('code', _('admin.user.codeSent'), _('admin.user.codeFailed'), () => adminApi.users.sendSignInCode(user.id)))}
              >
                {_('admin.user.sendCode')}
              </button>
            )}
            <button type="button" className={buttonClass.danger} onClick={() => setConfirmSignOut(true)}>
              {_('admin.user.signOutEverywhere')}
            </button>
          </div>
        </div>
      </div>

      <UserAccountsSection accounts={data.accounts} busyId={busyId} actions={accountActions} />

      <UserWalletSection userId={user.id} refreshKey={data} />

      <section aria-labelledby="user-payments" className="space-y-3">
        <h2 id="user-payments" className="text-lg font-semibold text-slate-900">
          {_('admin.user.payments')}
        </h2>
        <AdminTable
          caption={_('admin.user.payments')}
          columns={columns(PAYMENT_COLUMN_IDS)}
          isEmpty={data.transactions.length === 0}
          emptyText={_('admin.user.noPayments')}
          pinLastColumn
        >
          {data.transactions.map((transaction) => (
            <tr key={transaction.id}>
              <Cell className="whitespace-nowrap text-slate-700">{format.dateTime(transaction.createdAt)}</Cell>
              <Cell>{transaction.topUp ? _('admin.user.topUp') : planName(transaction.planName, null, transaction.planNames)}</Cell>
              <Cell className="whitespace-nowrap">
                {format.money(transaction.amount, transaction.currency)}
                {transaction.amountRefunded > 0 && (
                  <span className="block text-xs text-slate-500">
                    {_('admin.user.refunded', { amount: format.money(transaction.amountRefunded, transaction.currency) })}
                  </span>
                )}
              </Cell>
              <Cell className="capitalize">{statusText(transaction.status)}</Cell>
              <Cell>
                {transaction.refundable && (
                  <button
                    type="button"
                    className={rowButtonClass.danger}
                    onClick={() => setRefunding(transaction)}
                    aria-label={_('admin.user.refundLabel', { date: format.dateTime(transaction.createdAt) })}
                  >
                    {_('admin.user.refund')}
                  </button>
                )}
              </Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="user-subscriptions" className="space-y-3">
        <h2 id="user-subscriptions" className="text-lg font-semibold text-slate-900">
          {_('admin.subscriptions.title')}
        </h2>
        <AdminTable
          caption={_('admin.subscriptions.title')}
          columns={columns(SUBSCRIPTION_COLUMN_IDS)}
          isEmpty={data.subscriptions.length === 0}
          emptyText={_('admin.user.noSubscriptions')}
        >
          {data.subscriptions.map((subscription) => (
            <tr key={subscription.id}>
              <Cell>{planName(subscription.planName, subscription.planId, subscription.planNames)}</Cell>
              <Cell className="capitalize">{statusText(subscription.status)}</Cell>
              <Cell className="whitespace-nowrap">{format.dateTime(subscription.currentPeriodEnd)}</Cell>
              <Cell>{subscription.autoRenews ? _('admin.user.renewsOn', { date: format.dateTime(subscription.renewsAt) }) : _('admin.common.no')}</Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="user-sessions" className="space-y-3">
        <h2 id="user-sessions" className="text-lg font-semibold text-slate-900">
          {_('admin.user.sessions')}
        </h2>
        <AdminTable
          caption={_('admin.user.sessions')}
          columns={columns(SESSION_COLUMN_IDS)}
          isEmpty={data.sessions.length === 0}
          emptyText={_('admin.user.noSessions')}
        >
          {data.sessions.map((session) => (
            <tr key={session.id}>
              <Cell className="whitespace-nowrap">{format.dateTime(session.createdAt)}</Cell>
              <Cell className="whitespace-nowrap">{format.dateTime(session.lastUsedAt)}</Cell>
              <Cell>
                {session.client === 'desktop' ? _('admin.user.desktopApp') : _('admin.user.browser')}
                {session.userAgent && (
                  <span className="block max-w-64 truncate text-xs text-slate-500" title={session.userAgent}>
                    {session.userAgent}
                  </span>
                )}
              </Cell>
              <Cell>{session.ip ?? '—'}</Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="user-audit" className="space-y-3">
        <h2 id="user-audit" className="text-lg font-semibold text-slate-900">
          {_('admin.user.audit')}
        </h2>
        <AdminTable caption={_('admin.user.audit')} columns={columns(AUDIT_COLUMN_IDS)} isEmpty={data.audit.length === 0} emptyText={_('admin.user.noAudit')}>
          {data.audit.map((entry, index) => (
            <tr key={`${entry.createdAt}-${index}`}>
              <Cell className="whitespace-nowrap">{format.dateTime(entry.createdAt)}</Cell>
              <Cell className="font-medium text-slate-900">
                <span title={entry.action}>{auditActionLabelId(entry.action) ? _(auditActionLabelId(entry.action)!) : entry.action}</span>
              </Cell>
              <Cell>{entry.actorEmail ?? _('admin.user.system')}</Cell>
              <Cell className="max-w-96 min-w-64">
                <AuditEntryDetails details={entry.details} ip={entry.ip} />
              </Cell>
            </tr>
          ))}
        </AdminTable>
      </section>

      {confirmSignOut && (
        <ConfirmDialog
          title={_('admin.user.signOutEverywhere')}
          message={_('admin.user.signOutConfirm', { email: customerName(user, _) })}
          confirmLabel={_('admin.user.signOutEverywhere')}
          busyLabel={_('admin.user.signingOut')}
          busy={busyId === 'sessions'}
          onConfirm={() =>
            void quietly(act('sessions', _('admin.user.signedOut'), _('admin.user.signOutFailed'), () => adminApi.users.signOutEverywhere(user.id))).finally(
              () => setConfirmSignOut(false),
            )
          }
          onCancel={() => setConfirmSignOut(false)}
        />
      )}
      {refunding && (
        <RefundDialog
          transaction={refunding}
          onClose={() => setRefunding(null)}
          onRefund={async (body) => {
            await act(refunding.id, _('admin.user.paymentRefunded'), _('admin.user.refundFailed'), () => adminApi.payments.refund(refunding.id, body));
            setRefunding(null);
          }}
        />
      )}
    </div>
  );
}
