import type { Subscription } from '../../../../shared/billing.js';
import { BUTTON } from '../accounts/button-styles';
import { BillingStatusBadge, RenewalTag } from './BillingStatusBadge';
import { formatAmount, formatDate } from './billing-format';

interface SubscriptionsListProps {
  subscriptions: readonly Subscription[];
  onCancel: (subscription: Subscription) => void;
}

/**
 * An active subscription that renews by itself, not yet set to end, can be cancelled (it then ends at
 * its period end). A one-off purchase simply ends: there is nothing to cancel.
 */
function canCancel(subscription: Subscription): boolean {
  return subscription.autoRenews && subscription.status === 'active' && !subscription.cancelAtPeriodEnd;
}

function periodText(subscription: Subscription): string | null {
  if (!subscription.currentPeriodEnd) return null;
  const end = formatDate(subscription.currentPeriodEnd);
  if (subscription.status === 'ended') return `Ended ${end}`;
  if (subscription.status !== 'active') return null;
  return subscription.autoRenews ? `Renews ${end}` : `Ends ${end} · does not renew automatically`;
}

function SubscriptionItem({ subscription, onCancel }: { subscription: Subscription; onCancel: () => void }) {
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900">
          {subscription.planName}
          {subscription.renewal && <RenewalTag />}
          <span className="ml-2 font-normal text-slate-500 tabular-nums">{formatAmount(subscription.price, subscription.currency)}</span>
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-600">
          <BillingStatusBadge status={subscription.status} />
          {periodText(subscription) && <span>{periodText(subscription)}</span>}
          {subscription.cancelAtPeriodEnd && (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">Cancels at period end</span>
          )}
        </p>
        {subscription.error && <p className="mt-1 text-red-700">{subscription.error}</p>}
      </div>
      {canCancel(subscription) && (
        <button type="button" onClick={onCancel} className={`${BUTTON.smallDanger} self-end sm:self-auto`}>
          Cancel<span className="sr-only"> the {subscription.planName} subscription</span>
        </button>
      )}
    </li>
  );
}

/** The customer's subscriptions: status, period end, and Cancel for an active one that renews. */
export function SubscriptionsList({ subscriptions, onCancel }: SubscriptionsListProps) {
  if (subscriptions.length === 0) {
    return <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-600 ring-1 ring-slate-200">No subscriptions yet.</p>;
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
      {subscriptions.map((subscription) => (
        <SubscriptionItem key={subscription.id} subscription={subscription} onCancel={() => onCancel(subscription)} />
      ))}
    </ul>
  );
}
