import type { ComponentType, ReactNode, SVGProps } from 'react';

export interface Card {
  title: string;
  text: ReactNode;
  Icon?: ComponentType<SVGProps<SVGSVGElement>>;
  /** Shown only while the store offers it (site flags on <html>, styles.css): `payment`, a payment provider on. */
  claim?: 'payment' | 'trial';
}

/** Cards in a responsive grid (one column on phones, up to `columns` on wide screens). */
export function CardGrid({ cards, columns = 3 }: { cards: readonly Card[]; columns?: 2 | 3 | 4 }) {
  const grid = { 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-2 lg:grid-cols-3', 4: 'sm:grid-cols-2 lg:grid-cols-4' }[columns];
  return (
    <ul className={`grid gap-6 ${grid}`}>
      {cards.map(({ title, text, Icon, claim }) => (
        <li key={title} data-claim={claim} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          {Icon && (
            <span className="inline-flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
              <Icon className="size-6" aria-hidden="true" />
            </span>
          )}
          <h3 className={`${Icon ? 'mt-4 ' : ''}text-lg font-semibold text-slate-900`}>{title}</h3>
          <div className="mt-2 leading-7 text-slate-600">{text}</div>
        </li>
      ))}
    </ul>
  );
}
