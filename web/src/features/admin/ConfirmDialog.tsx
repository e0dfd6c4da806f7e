import { useLingui } from '@lingui/react';
import { useId, useRef } from 'react';
import { buttonClass } from './admin-ui';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busyLabel: string;
  /** The button that backs out (translated); 'Cancel' unless that would read oddly (e.g. before cancelling a subscription). */
  cancelLabel?: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a destructive action; Cancel has the focus, so Enter alone never deletes. */
export function ConfirmDialog({ title, message, confirmLabel, busyLabel, cancelLabel, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const { _ } = useLingui();
  const messageId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const close = () => !busy && onCancel();

  return (
    <Dialog title={title} onClose={close} initialFocusRef={cancelRef} describedBy={messageId} size="sm">
      <p id={messageId} className="text-sm text-slate-700">
        {message}
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button ref={cancelRef} type="button" onClick={close} disabled={busy} className={buttonClass.secondary}>
          {cancelLabel ?? _('admin.common.cancel')}
        </button>
        <button type="button" onClick={onConfirm} disabled={busy} className={buttonClass.danger}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
