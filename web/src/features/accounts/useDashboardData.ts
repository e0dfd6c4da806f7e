import { useCallback, useEffect, useRef, useState } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { Subscription } from '../../../../shared/billing.js';
import type { Plan } from '../../../../shared/plans.js';
import { accountApi } from '../../api/account-endpoints';
import { billingApi } from '../../api/billing-endpoints';

export type LoadState = 'loading' | 'loaded' | 'failed';

export interface DashboardData {
  plans: Plan[];
  accounts: VpnAccount[];
  /** The caller's subscriptions, newest first: what renews, and when. */
  subscriptions: Subscription[];
  loadState: LoadState;
  /** Reads plans, accounts and subscriptions again without blanking the page; resolves false when it failed. */
  reload: () => Promise<boolean>;
  /** Drops an account from the list at once (after a delete), before the reload confirms it. */
  removeAccount: (id: string) => void;
  /** Puts the server's answer for one subscription (after a cancel or resume) in place of the old one. */
  replaceSubscription: (updated: Subscription) => void;
}

/** The dashboard's plans, the caller's accounts and their subscriptions, loaded together. */
export function useDashboardData(): DashboardData {
  const [plans, setPlans] = useState<Plan[]>([]);
  const [accounts, setAccounts] = useState<VpnAccount[]>([]);
  const [subscriptions, setSubscriptions] = useState<Subscription[]>([]);
  const [loadState, setLoadState] = useState<LoadState>('loading');
  const mounted = useRef(true);

  const fetchAll = useCallback(async (signal?: AbortSignal) => {
    const [planList, accountList, subscriptionList] = await Promise.all([
      accountApi.listPlans(signal),
      accountApi.listAccounts(signal),
      billingApi.listSubscriptions(signal),
    ]);
    if (signal?.aborted || !mounted.current) return;
    setPlans(planList);
    setAccounts(accountList);
    setSubscriptions(subscriptionList);
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

  const replaceSubscription = useCallback((updated: Subscription) => {
    setSubscriptions((list) => list.map((subscription) => (subscription.id === updated.id ? updated : subscription)));
  }, []);

  return { plans, accounts, subscriptions, loadState, reload, removeAccount, replaceSubscription };
}
