import type { SubscriptionStatus, TransactionStatus } from '../../../../shared/billing.js';

type BillingStatus = TransactionStatus | SubscriptionStatus;

const GREEN = 'bg-emerald-50 text-emerald-800 ring-emerald-200';
const AMBER = 'bg-amber-50 text-amber-800 ring-amber-200';
const RED = 'bg-red-50 text-red-800 ring-red-200';
const GRAY = 'bg-slate-100 text-slate-700 ring-slate-300';

const STATUS_LOOK: Record<BillingStatus, { label: string; style: string }> = {
  succeeded: { label: 'Succeeded', style: GREEN },
  pending: { label: 'Payment processing', style: AMBER },
  failed: { label: 'Failed', style: RED },
  active: { label: 'Active', style: GREEN },
  incomplete: { label: 'Incomplete', style: AMBER },
  past_due: { label: 'Past due', style: 'bg-orange-50 text-orange-800 ring-orange-200' },
  canceled: { label: 'Canceled', style: GRAY },
  ended: { label: 'Ended', style: GRAY },
  needs_review: { label: 'Under review', style: AMBER },
  refunded: { label: 'Refunded', style: GRAY },
  disputed: { label: 'Disputed', style: RED },
};

/** A transaction's or subscription's status as a coloured pill; the word itself carries the meaning. */
export function BillingStatusBadge({ status }: { status: BillingStatus }) {
  const look = STATUS_LOOK[status] ?? { label: status, style: GRAY };
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${look.style}`}>
      {look.label}
    </span>
  );
}

/** The small 'Renewal' tag beside a plan name. */
export function RenewalTag() {
  return <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800">Renewal</span>;
}
