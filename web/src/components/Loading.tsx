import { useLingui } from '@lingui/react';
/** The spec's 'Loading...' state, announced to screen readers. */
export function Loading({ className = 'py-16' }: { className?: string }) {
  const { _ } = useLingui();
  return (
    <div role="status" className={`flex items-center justify-center gap-3 text-slate-600 ${className}`}>
      <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-indigo-200 border-t-indigo-600" />
      <span>{_('loading')}</span>
    </div>
  );
}
