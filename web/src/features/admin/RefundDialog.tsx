import { useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import { REFUND_REASONS, type AdminTransaction, type RefundDestination, type RefundReason } from '../../../../shared/billing.js';
import { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
import { useFormat } from '../../i18n/format';
import { messageOrFallback } from '../accounts/error-message';
import { inputClass } from './admin-ui';
import { Dialog } from './Dialog';
import { DialogFormFooter } from './DialogFormFooter';
import { customerName } from '../../components/header/customer-name';

/** The reasons' labels, as message ids. */
const REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: 'adminSettings.refund.reason.requested_by_customer',
  duplicate: 'adminSettings.refund.reason.duplicate',
  fraudulent: 'adminSettings.refund.reason.fraudulent',
};

/** Where the money goes, as message ids (label and explanation). */
const DESTINATION_LABELS: Record<RefundDestination, { label: string; hint: string }> = {
  provider: { label: 'adminSettings.refund.to.provider', hint: 'adminSettings.refund.to.providerHint' },
  wallet: { label: 'adminSettings.refund.to.wallet', hint: 'adminSettings.refund.to.walletHint' },
  manual: { label: 'adminSettings.refund.to.manual', hint: 'adminSettings.refund.to.manualHint' },
};

interface RefundDialogProps {
  transaction: AdminTransaction;
  onRefund: (body: { amount?: number; reason: RefundReason; note?: string; requestId: string; destination: RefundDestination }) => Promise<void>;
  onClose: () => void;
}

/**
 * Parses "4.99" (or "4,99") into 499 minor units of `currency`; null for anything that is not a positive
 * amount with at most the currency's decimals (none in yen, three in dinars).
 */
function parseAmount(text: string, currency: string): number | null {
  const minor = decimalToMinor(text.replace(',', '.'), currency, { roundExtra: false });
  return minor !== null && minor > 0 ? minor : null;
}

/**
 * A random version-4 UUID. `crypto.randomUUID` exists only on secure pages (https or localhost); an admin
 * opened over plain http on a LAN address still has `getRandomValues`.
 */
function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Refund the whole remaining amount or part of it, with a reason. A full refund takes the bought period off the account. */
export function RefundDialog({ transaction, onRefund, onClose }: RefundDialogProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const remaining = transaction.amount - transaction.amountRefunded;
  const [full, setFull] = useState(true);
  const [amountText, setAmountText] = useState(minorToDecimal(remaining, transaction.currency));
  const [reason, setReason] = useState<RefundReason>('requested_by_customer');
  const [note, setNote] = useState('');
  const destinations = transaction.refundDestinations;
  const [destination, setDestination] = useState<RefundDestination>(destinations[0] ?? 'provider');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One per dialog: sending it again (a double click, a retry after an error) is the same refund, never a second.
  const [requestId] = useState(newRequestId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const amount = full ? undefined : parseAmount(amountText, transaction.currency);
    if (amount === null || (amount !== undefined && amount > remaining)) {
      setError(_('adminSettings.refund.amountInvalid', { min: format.money(1, transaction.currency), max: format.money(remaining, transaction.currency) }));
      return;
    }
    if (destination === 'manual' && !note.trim()) {
      setError(_('adminSettings.refund.manualNote'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onRefund({ ...(amount !== undefined ? { amount } : {}), reason, ...(note.trim() ? { note: note.trim() } : {}), requestId, destination });
    } catch (caught) {
      setError(messageOrFallback(caught, _('adminSettings.refund.failed')));
      setBusy(false);
    }
  }

  return (
    <Dialog title={_('adminSettings.refund.title')} onClose={onClose} size="sm" describedBy={`${id}-what`}>
      <form onSubmit={(event) => void submit(event)} className="space-y-4 text-sm">
        <p id={`${id}-what`} className="text-slate-700">
          {_(transaction.amountRefunded > 0 ? 'adminSettings.refund.summaryPartlyRefunded' : 'adminSettings.refund.summary', {
            plan: transaction.planName,
            email: customerName({ email: transaction.userEmail }, _),
            amount: format.money(transaction.amount, transaction.currency),
            refunded: format.money(transaction.amountRefunded, transaction.currency),
          })}
        </p>
        <fieldset className="space-y-2">
          <legend className="font-medium text-slate-700">{_('adminSettings.refund.amount')}</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-kind`} checked={full} onChange={() => setFull(true)} />
            {_('adminSettings.refund.full', { amount: format.money(remaining, transaction.currency) })}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-kind`} checked={!full} onChange={() => setFull(false)} />
            {_('adminSettings.refund.part')}
          </label>
          {!full && (
            <input
              aria-label={_('adminSettings.refund.partAmount')}
              inputMode="decimal"
              value={amountText}
              onChange={(event) => setAmountText(event.target.value)}
              className={inputClass}
            />
          )}
        </fieldset>
        {destinations.length > 1 && (
          <fieldset className="space-y-2">
            <legend className="font-medium text-slate-700">{_('adminSettings.refund.to')}</legend>
            {destinations.map((value) => (
              <label key={value} className="flex items-start gap-2">
                <input type="radio" name={`${id}-to`} className="mt-1" checked={destination === value} onChange={() => setDestination(value)} />
                <span>
                  {_(DESTINATION_LABELS[value].label)}
                  <span className="block text-xs text-slate-500">{_(DESTINATION_LABELS[value].hint)}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        <label className="block">
          <span className="font-medium text-slate-700">{_('adminSettings.refund.reason')}</span>
          <select value={reason} onChange={(event) => setReason(event.target.value as typeof reason)} className={inputClass}>
            {REFUND_REASONS.map((value) => (
              <option key={value} value={value}>
                {_(REASON_LABELS[value])}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="font-medium text-slate-700">{_(destination === 'manual' ? 'adminSettings.refund.noteManual' : 'adminSettings.refund.note')}</span>
          <input value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} className={inputClass} />
        </label>
        <DialogFormFooter
          error={error}
          busy={busy}
          submitLabel={_('adminSettings.refund.submit')}
          busyLabel={_('adminSettings.refund.busy')}
          tone="danger"
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
