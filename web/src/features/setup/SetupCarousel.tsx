import { Trans, useLingui } from '@lingui/react';
import { useId, useState } from 'react';
import { useFormat } from '../../i18n/format';
import { BUTTON } from '../accounts/button-styles';
import { SETUP_SLIDES } from './setup-slides';

/** Illustrated setup steps, one slide at a time, with previous/next and dots; can be hidden. */
export function SetupCarousel() {
  const { _ } = useLingui();
  const format = useFormat();
  const regionId = useId();
  const [shown, setShown] = useState(true);
  const [index, setIndex] = useState(0);
  const count = SETUP_SLIDES.length;
  const slide = SETUP_SLIDES[index] ?? SETUP_SLIDES[0];
  if (!slide) return null;
  const { Icon } = slide;

  return (
    <section aria-labelledby={`${regionId}-title`} className="rounded-xl ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-3 px-4 py-3">
        <h3 id={`${regionId}-title`} className="text-sm font-semibold text-slate-900">
          {_('account.carousel.title')}
        </h3>
        <button
          type="button"
          aria-expanded={shown}
          aria-controls={regionId}
          onClick={() => setShown((value) => !value)}
          className="text-sm font-semibold text-indigo-700 hover:text-indigo-600"
        >
          {_(shown ? 'account.carousel.hide' : 'account.carousel.show')}
        </button>
      </div>
      <div id={regionId} hidden={!shown} aria-roledescription="carousel" className="border-t border-slate-200 px-4 py-4">
        <div
          role="group"
          aria-roledescription="slide"
          aria-label={_('account.carousel.slideLabel', { number: format.number(index + 1), count: format.number(count) })}
          aria-live="polite"
          className="flex flex-col items-center gap-3 text-center sm:flex-row sm:items-start sm:text-start"
        >
          <span className="flex size-20 shrink-0 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-600">
            <Icon className="size-10" />
          </span>
          <div>
            <p className="text-xs font-semibold tracking-wide text-indigo-700 uppercase">
              {_('account.carousel.stepOf', { number: format.number(index + 1), count: format.number(count) })}
            </p>
            <p className="mt-1 font-semibold text-slate-900">{_(slide.titleId)}</p>
            <p className="mt-1 text-sm leading-6 text-slate-600">{_(slide.textId)}</p>
          </div>
        </div>
        <div className="mt-4 flex items-center justify-between gap-3">
          <button type="button" onClick={() => setIndex((i) => (i - 1 + count) % count)} className={BUTTON.smallSecondary}>
            <Trans id="account.carousel.previous" components={{ 0: <span className="sr-only" /> }} />
          </button>
          <div className="flex gap-1.5">
            {SETUP_SLIDES.map((item, dot) => (
              <button
                key={item.titleId}
                type="button"
                aria-label={_('account.carousel.goTo', { number: format.number(dot + 1), title: _(item.titleId) })}
                aria-current={dot === index ? 'step' : undefined}
                onClick={() => setIndex(dot)}
                className="flex size-6 items-center justify-center"
              >
                <span aria-hidden="true" className={`block size-2.5 rounded-full ${dot === index ? 'bg-indigo-600' : 'bg-slate-300'}`} />
              </button>
            ))}
          </div>
          <button type="button" onClick={() => setIndex((i) => (i + 1) % count)} className={BUTTON.smallSecondary}>
            <Trans id="account.carousel.next" components={{ 0: <span className="sr-only" /> }} />
          </button>
        </div>
      </div>
    </section>
  );
}
