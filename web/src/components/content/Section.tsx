import { useId, type ReactNode } from 'react';

interface SectionProps {
  title?: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
  /** `muted` gives the band a light grey background to separate it from its neighbours. */
  tone?: 'plain' | 'muted';
  width?: 'narrow' | 'wide';
}

/** A content band with an optional <h2>, labelled for screen readers by that heading. */
export function Section({ title, intro, children, tone = 'plain', width = 'wide' }: SectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={title ? headingId : undefined} className={tone === 'muted' ? 'bg-slate-100' : undefined}>
      <div className={`mx-auto px-4 py-12 sm:px-6 sm:py-16 ${width === 'narrow' ? 'max-w-3xl' : 'max-w-6xl'}`}>
        {title && (
          <h2 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            {title}
          </h2>
        )}
        {intro && <p className="mt-3 max-w-3xl text-lg leading-8 text-slate-600">{intro}</p>}
        <div className={title || intro ? 'mt-8' : undefined}>{children}</div>
      </div>
    </section>
  );
}
