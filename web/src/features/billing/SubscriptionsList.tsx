import { Trans, useLingui } from '@lingui/react';
import type { Subscription } from '../../../../shared/billing.js';
import { useIsolate } from '../../i18n/bidi';
import { useFormat } from '../../i18n/format';
import { useKeptPlanName } from '../plans/usePlanText';
import { BUTTON } from '../accounts/button-styles';
import { BillingStatusBadge, RenewalTag } from './BillingStatusBadge';
import { canCancelAutoRenew, canResume, describeRenewal, pastDueWarning, renewalStateOf, subscriptionErrorText } from './subscription-state';

interface SubscriptionsListProps {
  subscriptions: readonly Subscription[];
  /** The subscription whose change is under way, if any. */
  busyId: string | null;
  onCancel: (subscription: Subscription) => void;
  onResume: (subscription: Subscription) => void;
}

/** 'Renews automatically' or 'One-off', beside the status. */
function BillingTag({ subscription }: { subscription: Subscription }) {
  const { _ } = useLingui();
  const recurring = subscription.billing === 'recurring';
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${recurring ? 'bg-indigo-50 text-indigo-800' : 'bg-slate-100 text-slate-700'}`}>
      {_(recurring ? 'account.subscriptions.recurring' : 'account.subscriptions.oneOff')}
    </span>
  );
}

interface SubscriptionItemProps {
  subscription: Subscription;
  busy: boolean;
  onCancel: () => void;
  onResume: () => void;
}

function SubscriptionItem({ subscription, busy, onCancel, onResume }: SubscriptionItemProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const renewal = describeRenewal(subscription, _, format);
  const pastDue = renewalStateOf(subscription).kind === 'pastDue';
  const planName = useKeptPlanName()(subscription.planName, subscription.planId, subscription.planNames);
  const isolated = useIsolate();
  const which = <span className="sr-only"> {_('account.subscriptions.which', { plan: isolated(planName) })}</span>;
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900">
          <bdi>{planName}</bdi>
          {subscription.renewal && <RenewalTag />}
          <span className="ms-2 font-normal text-slate-500 tabular-nums">{format.money(subscription.price, subscription.currency)}</span>
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-600">
          <BillingStatusBadge status={subscription.status} />
          <BillingTag subscription={subscription} />
          {renewal && !pastDue && <span>{renewal}</span>}
        </p>
        {pastDue && <p className="mt-1 font-medium text-amber-800">{pastDueWarning(subscription, _, format)}</p>}
        {subscription.error && <p className="mt-1 text-red-700">{subscriptionErrorText(subscription.error, _)}</p>}
      </div>
      {canCancelAutoRenew(subscription) && (
        <button type="button" onClick={onCancel} disabled={busy} className={`${BUTTON.smallDanger} self-end sm:self-auto`}>
          <Trans id="account.subscriptions.cancel" values={{ plan: isolated(planName) }} components={{ 0: <span className="sr-only" /> }} />
        </button>
      )}
      {canResume(subscription) && (
        <button type="button" onClick={onResume} disabled={busy} aria-busy={busy || undefined} className={`${BUTTON.smallSecondary} self-end sm:self-auto`}>
          {_(busy ? 'account.billing.resuming' : 'account.billing.resume')}
          {which}
        </button>
      )}
    </li>
  );
}

/**
 * The customer's subscriptions: status, whether each renews and when (or when it ends), with
 * Cancel auto-renew for one that renews and Resume for one cancelled before its period is over.
 * A one-off purchase simply ends: there is nothing to cancel.
 */
export function SubscriptionsList({ subscriptions, busyId, onCancel, onResume }: SubscriptionsListProps) {
  const { _ } = useLingui();
  if (subscriptions.length === 0) {
    return <p className="rounded-xl bg-slate-50 p-4 text-sm text-slate-600 ring-1 ring-slate-200">{_('account.subscriptions.empty')}</p>;
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
      {subscriptions.map((subscription) => (
        <SubscriptionItem
          key={subscription.id}
          subscription={subscription}
          busy={busyId === subscription.id}
          onCancel={() => onCancel(subscription)}
          onResume={() => onResume(subscription)}
        />
      ))}
    </ul>
  );
}
