import { useId, type ReactNode } from 'react';

/** A titled part of an admin tab (an <h2> that labels its <section>). */
export function TabSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
