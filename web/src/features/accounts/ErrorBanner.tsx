import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { CloseIcon } from '../../components/icons';

/** The dashboard's red error banner, announced when it appears, with a dismiss button. */
export function ErrorBanner({ message, onDismiss, action }: { message: string; onDismiss: () => void; action?: ReactNode }) {
  const { _ } = useLingui();
  return (
    <div role="alert" className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="min-w-0 flex-1 break-words">{message}</p>
      {action}
      <button type="button" onClick={onDismiss} className="-m-1 shrink-0 rounded p-1 text-red-700 hover:bg-red-100">
        <CloseIcon className="size-4" />
        <span className="sr-only">{_('account.errorBanner.dismiss')}</span>
      </button>
    </div>
  );
}
