import { useLingui } from '@lingui/react';
import type { PlanText, PlanTranslations } from '../../../../shared/plan-translations.js';
import type { Plan } from '../../../../shared/plans.js';
import { CheckIcon } from '../../components/content/content-icons';
import { planFeatureLines } from './plan-features';
import { usePlanText } from './usePlanText';

interface PlanFeaturesProps {
  plan: PlanText & Pick<Plan, 'deviceLimit'> & { translations?: PlanTranslations };
  className: string;
  iconClassName: string;
}

/**
 * A plan's feature lines, each with a check mark; nothing when it has none. A plan with a device
 * limit says 'Up to N devices' instead of any line promising unlimited devices. The lines are the
 * operator's in the page's language (English where not translated), each isolated (`<bdi>`) so an English
 * "24,000 GB of data" keeps its number first on a right-to-left page.
 */
export function PlanFeatures({ plan, className, iconClassName }: PlanFeaturesProps) {
  const { _ } = useLingui();
  const text = usePlanText(plan);
  const features = planFeatureLines({ features: text.features, deviceLimit: plan.deviceLimit }, (limit) => _('pricing.devices.upTo', { count: limit }));
  if (features.length === 0) return null;
  return (
    <ul className={className}>
      {features.map((feature, index) => (
        <li key={`${index}-${feature}`} className="flex gap-2">
          <CheckIcon className={`mt-0.5 shrink-0 text-indigo-600 ${iconClassName}`} />
          <bdi>{feature}</bdi>
        </li>
      ))}
    </ul>
  );
}
