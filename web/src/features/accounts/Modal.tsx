import { useLingui } from '@lingui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { CloseIcon } from '../../components/icons';

interface ModalProps {
  /** The visible title; it also names the dialog for screen readers. */
  title: ReactNode;
  titleId: string;
  onClose: () => void;
  children: ReactNode;
  size?: 'small' | 'large';
}

/**
 * Back to the opener; if it is gone or disabled now (a deleted row, a used trial), into the dialog
 * still open underneath (a confirmation over another dialog), else to the page's main region.
 */
function returnFocus(opener: HTMLElement | null) {
  if (opener && opener !== document.body) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  const dialogBelow = [...document.querySelectorAll<HTMLDialogElement>('dialog[open]')].at(-1);
  (dialogBelow?.querySelector<HTMLElement>('button') ?? document.getElementById('main'))?.focus();
}

/**
 * A modal on the native <dialog> (showModal): the rest of the page is inert, so focus stays
 * inside; Escape closes it; focus goes back to whatever opened it. Mark an element
 * `data-autofocus` to focus it first (otherwise the browser picks the first focusable one).
 */
export function Modal({ title, titleId, onClose, children, size = 'small' }: ModalProps) {
  const { _ } = useLingui();
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close();
      returnFocus(opener);
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] overflow-y-auto rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60 ${
        size === 'large' ? 'max-w-3xl' : 'max-w-md'
      }`}
    >
      <div className="p-5 sm:p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-xl font-bold tracking-tight text-slate-900">
            {title}
          </h2>
          <button type="button" onClick={() => onClose()} className="-m-1 shrink-0 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800">
            <CloseIcon className="size-5" />
            <span className="sr-only">{_('account.modal.close')}</span>
          </button>
        </div>
        <div className="mt-4">{children}</div>
      </div>
    </dialog>
  );
}
