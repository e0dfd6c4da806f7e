import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';

interface NumberedStepProps {
  number: number;
  title: string;
  /** Replaces the number in the circle, e.g. a spinner or a check mark; the number stays for screen readers. */
  marker?: ReactNode;
  children: ReactNode;
}

/** One card of a numbered list of steps (an `<li>`: put it in an `<ol>`). */
export function NumberedStep({ number, title, marker, children }: NumberedStepProps) {
  const { _ } = useLingui();
  return (
    <li className="flex gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-600 font-bold text-white">
        {marker ?? number}
      </span>
      <div className="min-w-0 leading-7 text-slate-700">
        <h2 className="text-lg font-semibold text-slate-900">
          <span className="sr-only">{_('step.label', { number })}</span>
          {title}
        </h2>
        {children}
      </div>
    </li>
  );
}
