import { useLingui } from '@lingui/react';
import type { Toast, ToastKind } from './toast-context';
import { CloseIcon } from '../../components/icons';

/** `label` is the message id of what screen readers hear before the message. */
const KIND_STYLES: Record<ToastKind, { box: string; label: string }> = {
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-900', label: 'toast.success' },
  error: { box: 'border-red-200 bg-red-50 text-red-900', label: 'toast.error' },
  info: { box: 'border-indigo-200 bg-indigo-50 text-indigo-900', label: 'toast.info' },
};

interface ToastViewportProps {
  toasts: Toast[];
  onDismiss: (id: number) => void;
}

/**
 * Stacked toasts just under the site header (its bar is `h-16` on the website and in the desktop app,
 * and sticks to the top), full width on phones and in the top end corner on wider screens, announced
 * politely. Under the header they never hide its links or the language menu (over it at 1280 px they
 * did); at the top they never hide the page's own buttons (at the bottom of a phone screen they
 * covered the buttons of the rows the customer was using).
 */
export function ToastViewport({ toasts, onDismiss }: ToastViewportProps) {
  const { _ } = useLingui();
  return (
    <div
      aria-live="polite"
      aria-label={_('toast.region')}
      role="region"
      className="pointer-events-none fixed inset-x-0 top-16 z-[60] flex flex-col items-center gap-2 p-2 sm:items-end sm:p-3"
    >
      {toasts.map((toast) => {
        const style = KIND_STYLES[toast.kind];
        return (
          <div key={toast.id} className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-2.5 shadow-lg ${style.box}`}>
            <p className="flex-1 text-sm">
              <span className="sr-only">{_(style.label)}: </span>
              {toast.message}
            </p>
            <button type="button" onClick={() => onDismiss(toast.id)} className="-m-1 rounded p-1 opacity-70 hover:opacity-100" aria-label={_('toast.dismiss')}>
              <CloseIcon className="size-4" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
