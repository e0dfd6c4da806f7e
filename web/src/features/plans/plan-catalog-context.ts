import { createContext, useContext, useEffect } from 'react';
import type { Plan } from '../../../../shared/plans.js';

export interface PlanCatalogState {
  /** The active plans (as `GET /api/plans` answers), or null until they are known. */
  plans: Plan[] | null;
  /** Fetching them failed: the page says so instead of showing prices. */
  failed: boolean;
}

interface PlanCatalog extends PlanCatalogState {
  /** Fetches the plans when the page did not arrive with them (at most once). */
  load(): void;
}

export const PlanCatalogContext = createContext<PlanCatalog>({ plans: null, failed: false, load: () => undefined });

/**
 * The plans on sale, for the public pages that show prices. A page the server rendered has them
 * from the first render (embedded, like the settings); otherwise they are fetched once.
 */
export function usePlanCatalog(): PlanCatalogState {
  const { plans, failed, load } = useContext(PlanCatalogContext);
  useEffect(() => {
    if (!plans) load();
  }, [plans, load]);
  return { plans, failed };
}
