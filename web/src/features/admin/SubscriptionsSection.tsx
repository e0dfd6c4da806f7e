import { useLingui } from '@lingui/react';
import { useCallback, useId, useState } from 'react';
import {
  SUBSCRIPTION_STATUSES,
  type AdminCancelSubscription,
  type AdminSubscription,
  type ProviderRead,
  type SubscriptionStatus,
} from '../../../../shared/billing.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { useFormat, type Formatters } from '../../i18n/format';
import { BillingStatusBadge } from '../billing/BillingStatusBadge';
import { canCancelAutoRenew, isLiveRecurring, renewalStateOf } from '../billing/subscription-state';
import { useToast } from '../toast/toast-context';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { inputClass, rowButtonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { ConfirmDialog } from './ConfirmDialog';
import { StatusBadge } from './StatusBadge';
import { useAdminResource } from './useAdminResource';
import { useBusyIds } from './useBusyIds';
import type { Translate } from './plan-form';
import { useDebouncedValue } from './useDebouncedValue';
import { customerName } from '../../components/header/customer-name';

const SEARCH_DEBOUNCE_MS = 300;
const COLUMN_IDS = [
  'admin.column.customer',
  'admin.column.plan',
  'admin.column.status',
  'admin.column.nextRenewal',
  'admin.column.amount',
  'admin.column.actions',
] as const;
/** `ended` is a one-off purchase's state; this list holds recurring subscriptions only. */
const STATUS_OPTIONS = SUBSCRIPTION_STATUSES.filter((status) => status !== 'ended');
const STATUS_LABEL_IDS: Record<SubscriptionStatus, string> = {
  incomplete: 'admin.subscriptions.status.incomplete',
  active: 'admin.subscriptions.status.active',
  past_due: 'admin.subscriptions.status.pastDue',
  canceled: 'admin.subscriptions.status.canceled',
  ended: 'admin.subscriptions.status.ended',
};

const MESSAGES = {
  loadFailed: 'admin.subscriptions.loadFailed',
  cancelFailed: 'admin.subscriptions.cancelFailed',
  canceledAtPeriodEnd: 'admin.subscriptions.canceledAtPeriodEnd',
  canceledNow: 'admin.subscriptions.canceledNow',
} as const;

type Pending = { subscription: AdminSubscription; when: AdminCancelSubscription['when'] };

/** The provider keeps refusing to tell us about it: a lost renewal or cancellation would not be seen. */
function ProviderReadProblem({ read }: { read: ProviderRead }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <span className="mt-1 block max-w-xs text-xs text-red-700">
      <StatusBadge tone="red">{_('admin.subscriptions.unreadable')}</StatusBadge>{' '}
      {read.lastReadAt
        ? _('admin.subscriptions.unreadableSince', { count: read.failures, date: format.dateTime(read.lastReadAt) })
        : _('admin.subscriptions.neverRead', { count: read.failures })}
      {read.lastError && <span className="block wrap-anywhere">{read.lastError}</span>}
    </span>
  );
}

/** When it renews, or when it ends or ended. */
function renewalText(subscription: AdminSubscription, _: Translate, format: Formatters): string {
  const state = renewalStateOf(subscription);
  switch (state.kind) {
    case 'renews':
      return _('admin.subscriptions.renews', { date: format.date(state.on) });
    case 'pastDue':
      return state.graceEndsAt ? _('admin.subscriptions.pausedAfter', { date: format.date(state.graceEndsAt) }) : _('admin.subscriptions.paymentFailed');
    case 'ending':
    case 'oneOff':
      return _('admin.subscriptions.ends', { date: format.date(state.on) });
    case 'ended':
      return _('admin.subscriptions.ended', { date: format.date(subscription.canceledAt ?? state.on) });
    case 'pending':
      return '—';
  }
}

function confirmQuestion({ subscription, when }: Pending, _: Translate, format: Formatters): string {
  const whose = { email: customerName({ email: subscription.userEmail }, _), plan: subscription.planName };
  if (when === 'period_end') {
    return _('admin.subscriptions.confirmPeriodEnd', { ...whose, date: format.date(subscription.currentPeriodEnd) });
  }
  return _('admin.subscriptions.confirmNow', whose);
}

/**
 * 'Subscriptions': every customer's recurring subscription, newest first, filterable by status,
 * e-mail and whether the provider can be read about it, with Cancel at period end (auto-renew off) and Cancel now.
 */
export function SubscriptionsSection({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const toast = useToast();
  const [status, setStatus] = useState<SubscriptionStatus | null>(null);
  const [email, setEmail] = useState('');
  const [unreadable, setUnreadable] = useState(false);
  const debouncedEmail = useDebouncedValue(email, SEARCH_DEBOUNCE_MS);
  const load = useCallback(
    (signal: AbortSignal) => adminApi.payments.listSubscriptions({ status, email: debouncedEmail, unreadable }, signal),
    [status, debouncedEmail, unreadable],
  );
  const { data, setData, loadState } = useAdminResource(load, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [pending, setPending] = useState<Pending | null>(null);
  const items = data ?? [];

  const cancel = ({ subscription, when }: Pending) =>
    runBusy(subscription.id, async () => {
      try {
        const updated = await adminApi.payments.cancelSubscription(subscription.id, { when });
        setData((list) => list && list.map((item) => (item.id === updated.id ? updated : item)));
        toast.success(_(when === 'now' ? MESSAGES.canceledNow : MESSAGES.canceledAtPeriodEnd));
      } catch (err) {
        toast.error(errorMessage(err, _(MESSAGES.cancelFailed)));
      } finally {
        setPending(null);
      }
    });

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        {_('admin.subscriptions.title')}
      </h2>
      <p className="text-sm text-slate-600">{_('admin.subscriptions.intro')}</p>
      <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-status`} className="block text-sm font-medium text-slate-700">
            {_('admin.subscriptions.statusFilter')}
          </label>
          <select
            id={`${id}-status`}
            value={status ?? ''}
            onChange={(event) => setStatus((event.target.value || null) as SubscriptionStatus | null)}
            className={inputClass}
          >
            <option value="">{_('admin.subscriptions.allStatuses')}</option>
            {STATUS_OPTIONS.map((value) => (
              <option key={value} value={value}>
                {_(STATUS_LABEL_IDS[value])}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-700">
            {_('admin.subscriptions.search')}
          </label>
          <input
            id={`${id}-email`}
            type="search"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="name@example.com"
            className={inputClass}
          />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={unreadable} onChange={(event) => setUnreadable(event.target.checked)} />
        {_('admin.subscriptions.unreadableFilter')}
      </label>

      {loadState === 'failed' && <AlertBox>{_(MESSAGES.loadFailed)}</AlertBox>}
      {loadState === 'loading' && items.length === 0 ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.subscriptions.title')}
          columns={COLUMN_IDS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={loadState === 'loaded' && items.length === 0}
          emptyText={_('admin.subscriptions.empty')}
          pinLastColumn
        >
          {items.map((item) => {
            const busy = isBusy(item.id);
            const rowName = (
              <span className="sr-only">
                {' '}
                {customerName({ email: item.userEmail }, _)} {item.planName}
              </span>
            );
            return (
              <tr key={item.id} className="align-top">
                <Cell className="font-medium text-slate-900">
                  {customerName({ email: item.userEmail }, _)}
                  {item.vpnAccountUsername && <span className="block text-xs font-normal break-all text-slate-500">{item.vpnAccountUsername}</span>}
                </Cell>
                <Cell>
                  <bdi>{item.planName}</bdi>
                </Cell>
                <Cell>
                  <span className="flex flex-wrap gap-1.5">
                    <BillingStatusBadge status={item.status} />
                    {item.cancelAtPeriodEnd && isLiveRecurring(item) && <StatusBadge tone="gray">{_('admin.subscriptions.autoRenewOff')}</StatusBadge>}
                  </span>
                  {item.error && <span className="mt-1 block text-xs text-red-700">{item.error}</span>}
                  {item.providerRead?.failing && <ProviderReadProblem read={item.providerRead} />}
                </Cell>
                <Cell className="whitespace-nowrap">{renewalText(item, _, format)}</Cell>
                <Cell className="whitespace-nowrap tabular-nums">{format.money(item.renewalAmount ?? item.price, item.currency)}</Cell>
                <Cell>
                  <span className="flex gap-2">
                    <button
                      type="button"
                      disabled={busy || !canCancelAutoRenew(item)}
                      onClick={() => setPending({ subscription: item, when: 'period_end' })}
                      className={`${rowButtonClass.neutral} whitespace-nowrap`}
                    >
                      {_('admin.subscriptions.cancelAtPeriodEnd')}
                      {rowName}
                    </button>
                    <button
                      type="button"
                      disabled={busy || !isLiveRecurring(item)}
                      onClick={() => setPending({ subscription: item, when: 'now' })}
                      className={`${rowButtonClass.danger} whitespace-nowrap`}
                    >
                      {_('admin.subscriptions.cancelNow')}
                      {rowName}
                    </button>
                  </span>
                </Cell>
              </tr>
            );
          })}
        </AdminTable>
      )}
      {pending && (
        <ConfirmDialog
          title={pending.when === 'now' ? _('admin.subscriptions.cancelNowTitle') : _('admin.subscriptions.cancelAtPeriodEnd')}
          message={confirmQuestion(pending, _, format)}
          confirmLabel={pending.when === 'now' ? _('admin.subscriptions.cancelNow') : _('admin.subscriptions.cancelAtPeriodEnd')}
          busyLabel={_('admin.subscriptions.canceling')}
          cancelLabel={_('admin.subscriptions.keep')}
          busy={isBusy(pending.subscription.id)}
          onConfirm={() => void cancel(pending)}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}
