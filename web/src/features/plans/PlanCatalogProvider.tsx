import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Plan } from '../../../../shared/plans.js';
import { accountApi } from '../../api/account-endpoints';
import { PlanCatalogContext } from './plan-catalog-context';

/**
 * Holds the plans on sale for the public pages. `initialPlans` is what the server rendered the
 * page with (so hydrating draws the same prices); without it the first page that needs the plans
 * fetches them.
 */
export function PlanCatalogProvider({ initialPlans, children }: { initialPlans?: Plan[]; children: ReactNode }) {
  const [plans, setPlans] = useState<Plan[] | null>(initialPlans ?? null);
  const [failed, setFailed] = useState(false);
  const requested = useRef(initialPlans !== undefined);

  const load = useCallback(() => {
    if (requested.current) return;
    requested.current = true;
    accountApi
      .listPlans()
      .then(setPlans)
      .catch(() => setFailed(true));
  }, []);

  const value = useMemo(() => ({ plans, failed, load }), [plans, failed, load]);
  return <PlanCatalogContext value={value}>{children}</PlanCatalogContext>;
}
