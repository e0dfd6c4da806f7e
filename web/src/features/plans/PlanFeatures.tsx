import { useLingui } from '@lingui/react';
import type { Plan } from '../../../../shared/plans.js';
import { CheckIcon } from '../../components/content/content-icons';
import { planFeatureLines } from './plan-features';

interface PlanFeaturesProps {
  plan: Pick<Plan, 'features' | 'deviceLimit'>;
  className: string;
  iconClassName: string;
}

/**
 * A plan's feature lines, each with a check mark; nothing when it has none. A plan with a device
 * limit says 'Up to N devices' instead of any line promising unlimited devices.
 */
export function PlanFeatures({ plan, className, iconClassName }: PlanFeaturesProps) {
  const { _ } = useLingui();
  const features = planFeatureLines(plan, (limit) => _('pricing.devices.upTo', { count: limit }));
  if (features.length === 0) return null;
  return (
    <ul className={className}>
      {features.map((feature, index) => (
        <li key={`${index}-${feature}`} className="flex gap-2">
          <CheckIcon className={`mt-0.5 shrink-0 text-indigo-600 ${iconClassName}`} />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}
