import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { FOCUSABLE, trapTab } from '../../lib/focus-trap';

interface DialogProps {
  title: string;
  /** Escape and the Cancel/close buttons call this. */
  onClose: () => void;
  children: ReactNode;
  /** Where focus goes on open; otherwise the first field or button. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Id of the text that describes the dialog (a confirmation's question). */
  describedBy?: string;
  /** `xl`: a form laid out in columns (the plan form's languages side by side). */
  size?: 'sm' | 'lg' | 'xl';
}

const DIALOG_WIDTHS = { sm: 'max-w-md', lg: 'max-w-xl', xl: 'max-w-6xl' } as const;

/**
 * A modal dialog: focus moves in on open, Tab stays inside, Escape closes, and focus returns to
 * whatever opened it. The backdrop does not close it, so a half-filled form is not lost by a stray click.
 * Keys are heard on the document, so they still work when a disabled button has dropped the focus.
 */
export function Dialog({ title, onClose, children, initialFocusRef, describedBy, size = 'lg' }: DialogProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = initialFocusRef?.current ?? panelRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panelRef.current)?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previousOverflow;
      opener?.focus();
    };
    // Runs once per opening; the ref is read at that moment.
  }, []);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        trapTab(event, panelRef.current);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    // Centred by auto margins, not align-items: a panel taller than the window then scrolls from its top.
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-950/60 p-4 sm:p-6">
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={`w-full ${DIALOG_WIDTHS[size]} rounded-xl bg-white p-5 shadow-2xl focus:outline-none sm:my-auto sm:p-6`}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}
