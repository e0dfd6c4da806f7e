import { useCallback, useId, useState } from 'react';
import { SUBSCRIPTION_STATUSES, type AdminCancelSubscription, type AdminSubscription, type SubscriptionStatus } from '../../../../shared/billing.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { BillingStatusBadge } from '../billing/BillingStatusBadge';
import { formatAmount, formatDate } from '../billing/billing-format';
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
import { useDebouncedValue } from './useDebouncedValue';

const SEARCH_DEBOUNCE_MS = 300;
const COLUMNS = ['Customer', 'Plan', 'Status', 'Next renewal / ends', 'Amount', 'Actions'] as const;
/** `ended` is a one-off purchase's state; this list holds recurring subscriptions only. */
const STATUS_OPTIONS = SUBSCRIPTION_STATUSES.filter((status) => status !== 'ended');
const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  incomplete: 'Incomplete', active: 'Active', past_due: 'Past due', canceled: 'Canceled', ended: 'Ended',
};

const MESSAGES = {
  loadFailed: 'Failed to load subscriptions',
  cancelFailed: 'Failed to cancel subscription',
  canceledAtPeriodEnd: 'Auto-renew turned off: the subscription ends with its paid period',
  canceledNow: 'Subscription canceled',
} as const;

type Pending = { subscription: AdminSubscription; when: AdminCancelSubscription['when'] };

/** When it renews, or when it ends or ended. */
function renewalText(subscription: AdminSubscription): string {
  const state = renewalStateOf(subscription);
  switch (state.kind) {
    case 'renews':
      return `Renews ${formatDate(state.on)}`;
    case 'pastDue':
      return state.graceEndsAt ? `Payment failed · paused after ${formatDate(state.graceEndsAt)}` : 'Payment failed';
    case 'ending':
    case 'oneOff':
      return `Ends ${formatDate(state.on)}`;
    case 'ended':
      return `Ended ${formatDate(subscription.canceledAt ?? state.on)}`;
    case 'pending':
      return '—';
  }
}

function confirmQuestion({ subscription, when }: Pending): string {
  const whose = `${subscription.userEmail}'s ${subscription.planName} subscription`;
  if (when === 'period_end') {
    return `Turn off auto-renew for ${whose}? It ends on ${formatDate(subscription.currentPeriodEnd)} and is not charged again; the customer can resume it until then.`;
  }
  return `End ${whose} now? It is not charged again and cannot be resumed. Nothing is refunded: refund a payment under Transactions if needed.`;
}

/**
 * 'Subscriptions': every customer's recurring subscription, newest first, filterable by status and
 * e-mail, with Cancel at period end (auto-renew off) and Cancel now.
 */
export function SubscriptionsSection({ refreshKey }: { refreshKey: number }) {
  const id = useId();
  const toast = useToast();
  const [status, setStatus] = useState<SubscriptionStatus | null>(null);
  const [email, setEmail] = useState('');
  const debouncedEmail = useDebouncedValue(email, SEARCH_DEBOUNCE_MS);
  const load = useCallback(
    (signal: AbortSignal) => adminApi.payments.listSubscriptions({ status, email: debouncedEmail }, signal),
    [status, debouncedEmail],
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
        toast.success(when === 'now' ? MESSAGES.canceledNow : MESSAGES.canceledAtPeriodEnd);
      } catch (err) {
        toast.error(errorMessage(err, MESSAGES.cancelFailed));
      } finally {
        setPending(null);
      }
    });

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
        Subscriptions
      </h2>
      <p className="text-sm text-slate-600">Plans that renew automatically. One-off purchases are under Transactions.</p>
      <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-status`} className="block text-sm font-medium text-slate-700">
            Subscription status
          </label>
          <select
            id={`${id}-status`}
            value={status ?? ''}
            onChange={(event) => setStatus((event.target.value || null) as SubscriptionStatus | null)}
            className={inputClass}
          >
            <option value="">All</option>
            {STATUS_OPTIONS.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-700">
            Search subscriptions by e-mail
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

      {loadState === 'failed' && <AlertBox>{MESSAGES.loadFailed}</AlertBox>}
      {loadState === 'loading' && items.length === 0 ? (
        <Loading />
      ) : (
        <AdminTable
          caption="Subscriptions"
          columns={COLUMNS}
          busy={loadState === 'loading'}
          isEmpty={loadState === 'loaded' && items.length === 0}
          emptyText="No subscriptions found."
        >
          {items.map((item) => {
            const busy = isBusy(item.id);
            const rowName = <span className="sr-only"> {item.userEmail} {item.planName}</span>;
            return (
              <tr key={item.id} className="align-top">
                <Cell className="font-medium text-slate-900">
                  {item.userEmail}
                  {item.vpnAccountUsername && <span className="block text-xs font-normal break-all text-slate-500">{item.vpnAccountUsername}</span>}
                </Cell>
                <Cell>{item.planName}</Cell>
                <Cell>
                  <span className="flex flex-wrap gap-1.5">
                    <BillingStatusBadge status={item.status} />
                    {item.cancelAtPeriodEnd && isLiveRecurring(item) && <StatusBadge tone="gray">Auto-renew off</StatusBadge>}
                  </span>
                  {item.error && <span className="mt-1 block text-xs text-red-700">{item.error}</span>}
                </Cell>
                <Cell className="whitespace-nowrap">{renewalText(item)}</Cell>
                <Cell className="whitespace-nowrap tabular-nums">{formatAmount(item.renewalAmount ?? item.price, item.currency)}</Cell>
                <Cell>
                  <span className="flex gap-2">
                    <button
                      type="button"
                      disabled={busy || !canCancelAutoRenew(item)}
                      onClick={() => setPending({ subscription: item, when: 'period_end' })}
                      className={`${rowButtonClass.neutral} whitespace-nowrap`}
                    >
                      Cancel at period end{rowName}
                    </button>
                    <button
                      type="button"
                      disabled={busy || !isLiveRecurring(item)}
                      onClick={() => setPending({ subscription: item, when: 'now' })}
                      className={`${rowButtonClass.danger} whitespace-nowrap`}
                    >
                      Cancel now{rowName}
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
          title={pending.when === 'now' ? 'Cancel subscription now' : 'Cancel at period end'}
          message={confirmQuestion(pending)}
          confirmLabel={pending.when === 'now' ? 'Cancel now' : 'Cancel at period end'}
          busyLabel="Canceling..."
          cancelLabel="Keep subscription"
          busy={isBusy(pending.subscription.id)}
          onConfirm={() => void cancel(pending)}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}
