/** The spec's 'Loading...' state, announced to screen readers. */
export function Loading({ className = 'py-16' }: { className?: string }) {
  return (
    <div role="status" className={`flex items-center justify-center gap-3 text-slate-600 ${className}`}>
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-indigo-200 border-t-indigo-600"
      />
      <span>Loading...</span>
    </div>
  );
}
