import { useLingui } from '@lingui/react';
import { buttonClass } from './admin-ui';

/** The end of a dialog's form: its error, Cancel, and the submit button (its busy label while it runs). */
export function DialogFormFooter({
  error,
  busy,
  submitLabel,
  busyLabel,
  tone = 'primary',
  onCancel,
}: {
  error: string | null;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  tone?: 'primary' | 'danger';
  onCancel: () => void;
}) {
  const { _ } = useLingui();
  return (
    <>
      {error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onCancel} className={buttonClass.secondary}>
          {_('admin.common.cancel')}
        </button>
        <button type="submit" disabled={busy} className={buttonClass[tone]}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </>
  );
}
