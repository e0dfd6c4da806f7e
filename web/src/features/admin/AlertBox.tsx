import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The red box for a failed load or a form error, announced when it appears. With `reveal` (a form
 * error above a long form) it scrolls into view and takes the focus, which the form's disabled
 * submit button has just dropped.
 */
export function AlertBox({ children, reveal = false }: { children: ReactNode; reveal?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!reveal) return;
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.focus({ preventScroll: true });
  }, [reveal]);

  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={reveal ? -1 : undefined}
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 focus:outline-none"
    >
      {children}
    </div>
  );
}
