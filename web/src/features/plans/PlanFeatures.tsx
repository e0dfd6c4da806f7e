import { CheckIcon } from '../../components/content/content-icons';

/** A plan's feature lines, each with a check mark; nothing when it has none. */
export function PlanFeatures({ features, className, iconClassName }: { features: readonly string[]; className: string; iconClassName: string }) {
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
