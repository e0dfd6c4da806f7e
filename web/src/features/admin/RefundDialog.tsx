import { useId, useState, type FormEvent } from 'react';
import { REFUND_REASONS, type AdminTransaction, type RefundReason } from '../../../../shared/billing.js';
import { formatAmount } from '../billing/billing-format';
import { messageOrFallback } from '../accounts/error-message';
import { inputClass } from './admin-ui';
import { Dialog } from './Dialog';
import { DialogFormFooter } from './DialogFormFooter';

const REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: 'Requested by the customer',
  duplicate: 'Duplicate payment',
  fraudulent: 'Fraudulent payment',
};

interface RefundDialogProps {
  transaction: AdminTransaction;
  onRefund: (body: { amount?: number; reason: RefundReason; note?: string }) => Promise<void>;
  onClose: () => void;
}

/** Parses "4.99" into 499 cents; null for anything that is not a positive amount with at most two decimals. */
function parseCents(text: string): number | null {
  const match = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** Refund the whole remaining amount or part of it, with a reason. A full refund takes the bought period off the account. */
export function RefundDialog({ transaction, onRefund, onClose }: RefundDialogProps) {
  const id = useId();
  const remaining = transaction.amount - transaction.amountRefunded;
  const [full, setFull] = useState(true);
  const [amountText, setAmountText] = useState((remaining / 100).toFixed(2));
  const [reason, setReason] = useState<RefundReason>('requested_by_customer');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const amount = full ? undefined : parseCents(amountText);
    if (amount === null || (amount !== undefined && amount > remaining)) {
      setError(`Enter an amount between $0.01 and ${formatAmount(remaining, transaction.currency)}.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onRefund({ ...(amount !== undefined ? { amount } : {}), reason, ...(note.trim() ? { note: note.trim() } : {}) });
    } catch (caught) {
      setError(messageOrFallback(caught, 'Failed to refund the payment'));
      setBusy(false);
    }
  }

  return (
    <Dialog title="Refund payment" onClose={onClose} size="sm" describedBy={`${id}-what`}>
      <form onSubmit={(event) => void submit(event)} className="space-y-4 text-sm">
        <p id={`${id}-what`} className="text-slate-700">
          {transaction.planName} · {transaction.userEmail} · paid {formatAmount(transaction.amount, transaction.currency)}
          {transaction.amountRefunded > 0 && `, ${formatAmount(transaction.amountRefunded, transaction.currency)} already refunded`}
        </p>
        <fieldset className="space-y-2">
          <legend className="font-medium text-slate-700">Amount</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-kind`} checked={full} onChange={() => setFull(true)} />
            Full refund ({formatAmount(remaining, transaction.currency)}): ends the period it bought
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-kind`} checked={!full} onChange={() => setFull(false)} />
            Part of it: the account is not changed
          </label>
          {!full && (
            <input
              aria-label="Amount to refund, in dollars"
              inputMode="decimal"
              value={amountText}
              onChange={(event) => setAmountText(event.target.value)}
              className={inputClass}
            />
          )}
        </fieldset>
        <label className="block">
          <span className="font-medium text-slate-700">Reason</span>
          <select value={reason} onChange={(event) => setReason(event.target.value as typeof reason)} className={inputClass}>
            {REFUND_REASONS.map((value) => (
              <option key={value} value={value}>
                {REASON_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="font-medium text-slate-700">Note (optional, for your records)</span>
          <input value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} className={inputClass} />
        </label>
        <DialogFormFooter error={error} busy={busy} submitLabel="Refund" busyLabel="Refunding..." tone="danger" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
