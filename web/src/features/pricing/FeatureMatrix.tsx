import { PLAN_FEATURES, PRICING_TIERS, tierIncludes, type TierId } from '../../../../shared/pricing.js';
import { CheckIcon, DashIcon } from '../../components/content/content-icons';

/** Which tier includes which feature, as a real table (scrolls inside itself on narrow screens). */
export function FeatureMatrix({ tiers }: { tiers: readonly TierId[] }) {
  return (
    <div className="overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-left text-sm sm:text-base">
        <caption className="sr-only">Features included in each plan</caption>
        <thead className="bg-slate-50 text-slate-900">
          <tr>
            <th scope="col" className="px-3 py-3 font-semibold sm:px-6">
              Feature
            </th>
            {tiers.map((tier) => (
              <th key={tier} scope="col" className="px-2 py-3 text-center font-semibold sm:px-6">
                {PRICING_TIERS[tier].name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {PLAN_FEATURES.map((feature) => (
            <tr key={feature.id}>
              <th scope="row" className="px-3 py-3 font-medium text-slate-800 sm:px-6">
                {feature.label}
              </th>
              {tiers.map((tier) => (
                <td key={tier} className="px-2 py-3 text-center sm:px-6">
                  {tierIncludes(tier, feature) ? (
                    <>
                      <CheckIcon className="inline size-5 text-indigo-600" />
                      <span className="sr-only">Included</span>
                    </>
                  ) : (
                    <>
                      <DashIcon className="inline size-5 text-slate-400" />
                      <span className="sr-only">Not included</span>
                    </>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
