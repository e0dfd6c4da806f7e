import { useId, type ReactNode } from 'react';
import { cardClass } from './admin-ui';

/** One card of the Settings tab: a titled section the heading names. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={`${cardClass} max-w-2xl p-5 sm:p-6`}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
