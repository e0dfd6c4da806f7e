import { useLingui } from '@lingui/react';
import { TrialClaim } from '../../components/content/TrialClaim';
import { PRICING_FAQ } from './pricing-faq';

/** Questions as disclosure widgets: each answer opens under its question. */
export function PricingFaq() {
  const { _ } = useLingui();
  return (
    <div className="divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      {PRICING_FAQ.map(({ questionId, answerId, claim, answerNoTrialId }) => (
        <details key={questionId} data-claim={claim} className="group px-4 py-4 sm:px-6">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            <span>{_(questionId)}</span>
            <span aria-hidden="true" className="text-xl leading-none text-indigo-600 group-open:rotate-45 transition-transform">
              +
            </span>
          </summary>
          <p className="mt-3 leading-7 text-slate-700">{answerNoTrialId ? <TrialClaim trial={_(answerId)} otherwise={_(answerNoTrialId)} /> : _(answerId)}</p>
        </details>
      ))}
    </div>
  );
}
