import { useCallback, useEffect, useRef, useState } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { Plan } from '../../../../shared/plans.js';
import { accountApi } from '../../api/account-endpoints';

export type LoadState = 'loading' | 'loaded' | 'failed';

export interface DashboardData {
  plans: Plan[];
  accounts: VpnAccount[];
  loadState: LoadState;
  /** Reads plans and accounts again without blanking the page; resolves false when it failed. */
  reload: () => Promise<boolean>;
  /** Drops an account from the list at once (after a delete), before the reload confirms it. */
  removeAccount: (id: string) => void;
}

/** The dashboard's plans and the caller's accounts, loaded together. */
export function useDashboardData(): DashboardData {
  const [plans, setPlans] = useState<Plan[]>([]);
  const [accounts, setAccounts] = useState<VpnAccount[]>([]);
  const [loadState, setLoadState] = useState<LoadState>('loading');
  const mounted = useRef(true);

  const fetchAll = useCallback(async (signal?: AbortSignal) => {
    const [planList, accountList] = await Promise.all([accountApi.listPlans(signal), accountApi.listAccounts(signal)]);
    if (signal?.aborted || !mounted.current) return;
    setPlans(planList);
    setAccounts(accountList);
    setLoadState('loaded');
  }, []);

  useEffect(() => {
    mounted.current = true;
    const controller = new AbortController();
    fetchAll(controller.signal).catch(() => {
      if (!controller.signal.aborted) setLoadState('failed');
    });
    return () => {
      mounted.current = false;
      controller.abort();
    };
  }, [fetchAll]);

  const reload = useCallback(async () => {
    try {
      await fetchAll();
      return true;
    } catch {
      return false;
    }
  }, [fetchAll]);

  const removeAccount = useCallback((id: string) => {
    setAccounts((list) => list.filter((account) => account.id !== id));
  }, []);

  return { plans, accounts, loadState, reload, removeAccount };
}
