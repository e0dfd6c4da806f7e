import type { Toast, ToastKind } from './toast-context';
import { CloseIcon } from '../../components/icons';

const KIND_STYLES: Record<ToastKind, { box: string; label: string }> = {
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-900', label: 'Success' },
  error: { box: 'border-red-200 bg-red-50 text-red-900', label: 'Error' },
  info: { box: 'border-indigo-200 bg-indigo-50 text-indigo-900', label: 'Info' },
};

interface ToastViewportProps {
  toasts: Toast[];
  onDismiss: (id: number) => void;
}

/** Stacked toasts in the top-right corner (full width on phones), announced politely. */
export function ToastViewport({ toasts, onDismiss }: ToastViewportProps) {
  return (
    <div
      aria-live="polite"
      aria-label="Notifications"
      role="region"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col-reverse items-center gap-2 p-4 sm:items-end"
    >
      {toasts.map((toast) => {
        const style = KIND_STYLES[toast.kind];
        return (
          <div
            key={toast.id}
            className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 shadow-lg ${style.box}`}
          >
            <p className="flex-1 text-sm">
              <span className="sr-only">{style.label}: </span>
              {toast.message}
            </p>
            <button
              type="button"
              onClick={() => onDismiss(toast.id)}
              className="-m-1 rounded p-1 opacity-70 hover:opacity-100"
              aria-label="Dismiss notification"
            >
              <CloseIcon className="size-4" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
