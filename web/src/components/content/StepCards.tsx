export interface StepCard {
  title: string;
  text: string;
}

/** Numbered steps as cards, three across on wide screens. */
export function StepCards({ steps }: { steps: readonly StepCard[] }) {
  return (
    <ol className="grid gap-6 md:grid-cols-3">
      {steps.map((step, index) => (
        <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <span className="inline-flex size-9 items-center justify-center rounded-full bg-indigo-600 font-semibold text-white" aria-hidden="true">
            {index + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
          <p className="mt-2 leading-7 text-slate-600">{step.text}</p>
        </li>
      ))}
    </ol>
  );
}
