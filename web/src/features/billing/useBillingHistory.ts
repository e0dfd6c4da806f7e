import { useCallback, useEffect, useState } from 'react';
import type { Subscription, Transaction } from '../../../../shared/billing.js';
import { billingApi } from '../../api/billing-endpoints';

/** One list of the history dialog: each loads (and fails) on its own. */
export type ListState<T> = { status: 'loading' } | { status: 'loaded'; items: T[] } | { status: 'failed' };

export interface BillingHistory {
  transactions: ListState<Transaction>;
  subscriptions: ListState<Subscription>;
  /** Puts the server's answer for one subscription (after a cancel or resume) in place of the old row. */
  replaceSubscription: (updated: Subscription) => void;
}

/** Loads `list` once, into a ListState, and stops listening on unmount. */
function useList<T>(list: (signal: AbortSignal) => Promise<T[]>) {
  const [state, setState] = useState<ListState<T>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    list(controller.signal)
      .then((items) => setState({ status: 'loaded', items }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [list]);
  return [state, setState] as const;
}

/** The customer's transactions (newest first) and subscriptions, for the transaction history dialog. */
export function useBillingHistory(): BillingHistory {
  const [transactions] = useList(billingApi.listTransactions);
  const [subscriptions, setSubscriptions] = useList(billingApi.listSubscriptions);

  const replaceSubscription = useCallback(
    (updated: Subscription) =>
      setSubscriptions((state) =>
        state.status === 'loaded' ? { status: 'loaded', items: state.items.map((item) => (item.id === updated.id ? updated : item)) } : state,
      ),
    [setSubscriptions],
  );

  return { transactions, subscriptions, replaceSubscription };
}
