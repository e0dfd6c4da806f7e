import { useId, useState } from 'react';
import { SiteLink } from '../../platform/SiteLink';

/** There is no setup video yet: the panel says so and points to the help pages. Hidden until asked for. */
export function VideoGuidePanel() {
  const panelId = useId();
  const [shown, setShown] = useState(false);

  return (
    <section aria-labelledby={`${panelId}-title`} className="rounded-xl ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-3 px-4 py-3">
        <h3 id={`${panelId}-title`} className="text-sm font-semibold text-slate-900">
          Video guide
        </h3>
        <button
          type="button"
          aria-expanded={shown}
          aria-controls={panelId}
          onClick={() => setShown((value) => !value)}
          className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
        >
          {shown ? 'Hide video guide' : 'Show video guide'}
        </button>
      </div>
      <div id={panelId} hidden={!shown} className="border-t border-slate-200 px-4 py-4 text-sm leading-6 text-slate-600">
        <p>The video guide is not available yet. The steps above cover everything it will show.</p>
        <p className="mt-2">
          Stuck? The{' '}
          <SiteLink to="/help" className="font-semibold text-indigo-700 underline hover:text-indigo-600">
            Help Center
          </SiteLink>{' '}
          answers the common questions.
        </p>
      </div>
    </section>
  );
}
