import type { VpnAccountStatus } from '../../../../shared/accounts.js';

const STATUS_STYLES: Record<VpnAccountStatus, string> = {
  active: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  suspended: 'bg-amber-50 text-amber-800 ring-amber-200',
  limited: 'bg-orange-50 text-orange-800 ring-orange-200',
  expired: 'bg-red-50 text-red-800 ring-red-200',
  disabled: 'bg-slate-100 text-slate-700 ring-slate-300',
  on_hold: 'bg-sky-50 text-sky-800 ring-sky-200',
};

/**
 * A bought account stays suspended until its payment is confirmed and then until its panel user is
 * made, so that is what it says.
 */
function statusLabel(status: VpnAccountStatus, paymentConfirmed: boolean): string {
  if (status === 'suspended') return paymentConfirmed ? 'Paid · being set up' : 'Awaiting payment';
  return status.replace('_', ' ');
}

/** The account's status as a coloured pill; the word itself carries the meaning. */
export function StatusBadge({ status, paymentConfirmed = false }: { status: VpnAccountStatus; paymentConfirmed?: boolean }) {
  const label = statusLabel(status, paymentConfirmed);
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ring-1 ring-inset ${STATUS_STYLES[status] ?? STATUS_STYLES.disabled}`}>
      {label}
    </span>
  );
}
