import { Trans, useLingui } from '@lingui/react';
import { useId, useState } from 'react';
import { SiteLink } from '../../platform/SiteLink';

/** There is no setup video yet: the panel says so and points to the help pages. Hidden until asked for. */
export function VideoGuidePanel() {
  const { _ } = useLingui();
  const panelId = useId();
  const [shown, setShown] = useState(false);

  return (
    <section aria-labelledby={`${panelId}-title`} className="rounded-xl ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-3 px-4 py-3">
        <h3 id={`${panelId}-title`} className="text-sm font-semibold text-slate-900">
          {_('account.video.title')}
        </h3>
        <button
          type="button"
          aria-expanded={shown}
          aria-controls={panelId}
          onClick={() => setShown((value) => !value)}
          className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
        >
          {_(shown ? 'account.video.hide' : 'account.video.show')}
        </button>
      </div>
      <div id={panelId} hidden={!shown} className="border-t border-slate-200 px-4 py-4 text-sm leading-6 text-slate-600">
        <p>{_('account.video.unavailable')}</p>
        <p className="mt-2">
          <Trans
            id="account.video.stuck"
            components={{
              0: (
                <SiteLink to="/help" className="font-semibold text-indigo-700 underline hover:text-indigo-600">
                  {null}
                </SiteLink>
              ),
            }}
          />
        </p>
      </div>
    </section>
  );
}
