import { useLingui } from '@lingui/react';
import type { VpnAccountStatus } from '../../../../shared/accounts.js';
import { useLocale } from '../../i18n/locale-context';

const STATUS_STYLES: Record<VpnAccountStatus, string> = {
  active: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  suspended: 'bg-amber-50 text-amber-800 ring-amber-200',
  limited: 'bg-orange-50 text-orange-800 ring-orange-200',
  expired: 'bg-red-50 text-red-800 ring-red-200',
  disabled: 'bg-slate-100 text-slate-700 ring-slate-300',
  on_hold: 'bg-sky-50 text-sky-800 ring-sky-200',
};

/** The statuses' message ids (the English is the status word, capitalized by CSS). */
const STATUS_LABELS: Record<Exclude<VpnAccountStatus, 'suspended'>, string> = {
  active: 'account.status.active',
  limited: 'account.status.limited',
  expired: 'account.status.expired',
  disabled: 'account.status.disabled',
  on_hold: 'account.status.onHold',
};

/**
 * A bought account stays suspended until its payment is confirmed and then until its panel user is
 * made, so that is what it says.
 */
function statusLabelId(status: VpnAccountStatus, paymentConfirmed: boolean): string | null {
  if (status === 'suspended') return paymentConfirmed ? 'account.status.paidSettingUp' : 'account.status.awaitingPayment';
  return STATUS_LABELS[status] ?? null;
}

/** The account's status as a coloured pill; the word itself carries the meaning. */
export function StatusBadge({ status, paymentConfirmed = false }: { status: VpnAccountStatus; paymentConfirmed?: boolean }) {
  const { _ } = useLingui();
  const { locale } = useLocale();
  const id = statusLabelId(status, paymentConfirmed);
  const label = id ? _(id) : String(status).replace('_', ' ');
  // English shows the lower-case status words capitalized; the translations are written as they should read.
  const capitalize = locale === 'en' ? 'capitalize ' : '';
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${capitalize}ring-1 ring-inset ${STATUS_STYLES[status] ?? STATUS_STYLES.disabled}`}
    >
      {label}
    </span>
  );
}
