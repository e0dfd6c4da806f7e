import { useLingui } from '@lingui/react';
import { useId, useState } from 'react';
import { BUTTON } from './button-styles';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busyLabel: string;
  /** The button that backs out; 'Cancel' unless that would read oddly (e.g. cancelling a subscription). */
  cancelLabel?: string;
  /** Runs the action; the dialog stays open (busy) until it settles, then closes. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** A yes/no question before something that cannot be undone; Cancel has the focus. */
export function ConfirmDialog({ title, message, confirmLabel, busyLabel, cancelLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const { _ } = useLingui();
  const titleId = useId();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      onClose();
    }
  }

  return (
    <Modal title={title} titleId={titleId} onClose={() => !busy && onClose()}>
      <p className="leading-7 text-slate-600">{message}</p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" data-autofocus onClick={onClose} disabled={busy} className={BUTTON.secondary}>
          {cancelLabel ?? _('account.confirm.cancel')}
        </button>
        <button type="button" onClick={() => void confirm()} disabled={busy} className={BUTTON.danger}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
