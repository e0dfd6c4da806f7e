import type { ReactNode } from 'react';

interface PageHeroProps {
  /** The page's one <h1>. */
  title: ReactNode;
  subtitle?: ReactNode;
  /** Small label above the title, e.g. the section name. */
  eyebrow?: string;
  children?: ReactNode;
}

/** The dark band every content page opens with. */
export function PageHero({ title, subtitle, eyebrow, children }: PageHeroProps) {
  return (
    <section className="bg-gradient-to-b from-indigo-950 via-indigo-900 to-indigo-800 text-white">
      <div className="mx-auto max-w-5xl px-4 py-14 text-center sm:px-6 sm:py-20">
        {eyebrow && <p className="text-sm font-semibold uppercase tracking-wider text-indigo-200">{eyebrow}</p>}
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight break-words sm:text-5xl">{title}</h1>
        {subtitle && <p className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-indigo-100">{subtitle}</p>}
        {children && <div className="mt-8">{children}</div>}
      </div>
    </section>
  );
}
