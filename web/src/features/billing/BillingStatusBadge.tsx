import { useLingui } from '@lingui/react';
import type { SubscriptionStatus, TransactionStatus } from '../../../../shared/billing.js';

type BillingStatus = TransactionStatus | SubscriptionStatus;

const GREEN = 'bg-emerald-50 text-emerald-800 ring-emerald-200';
const AMBER = 'bg-amber-50 text-amber-800 ring-amber-200';
const RED = 'bg-red-50 text-red-800 ring-red-200';
const GRAY = 'bg-slate-100 text-slate-700 ring-slate-300';

/** Each status's message id and colours. */
const STATUS_LOOK: Record<BillingStatus, { labelId: string; style: string }> = {
  succeeded: { labelId: 'account.billingStatus.succeeded', style: GREEN },
  pending: { labelId: 'account.billingStatus.pending', style: AMBER },
  failed: { labelId: 'account.billingStatus.failed', style: RED },
  // The customer cancelled at checkout: nothing went wrong and nothing was charged.
  cancelled: { labelId: 'account.billingStatus.cancelled', style: GRAY },
  active: { labelId: 'account.billingStatus.active', style: GREEN },
  incomplete: { labelId: 'account.billingStatus.incomplete', style: AMBER },
  past_due: { labelId: 'account.billingStatus.pastDue', style: 'bg-orange-50 text-orange-800 ring-orange-200' },
  canceled: { labelId: 'account.billingStatus.canceled', style: GRAY },
  ended: { labelId: 'account.billingStatus.ended', style: GRAY },
  needs_review: { labelId: 'account.billingStatus.needsReview', style: AMBER },
  refunded: { labelId: 'account.billingStatus.refunded', style: GRAY },
  disputed: { labelId: 'account.billingStatus.disputed', style: RED },
};

/** A transaction's or subscription's status as a coloured pill; the word itself carries the meaning. */
export function BillingStatusBadge({ status }: { status: BillingStatus }) {
  const { _ } = useLingui();
  const look = STATUS_LOOK[status] as (typeof STATUS_LOOK)[BillingStatus] | undefined;
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${look?.style ?? GRAY}`}>
      {look ? _(look.labelId) : status}
    </span>
  );
}

/** The small 'Renewal' tag beside a plan name. */
export function RenewalTag() {
  const { _ } = useLingui();
  return (
    <span className="ms-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-indigo-800">
      {_('account.billing.renewalTag')}
    </span>
  );
}
