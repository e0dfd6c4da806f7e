import { useEffect, useState } from 'react';
import { billingApi } from '../../api/billing-endpoints';

/** The caller's balance (minor units of the store's currency), or null until it is known or when it cannot be read. */
export function useWalletBalance(refreshKey: unknown = null): { balance: number; currency: string } | null {
  const [wallet, setWallet] = useState<{ balance: number; currency: string } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    billingApi.wallet(controller.signal).then(
      (answer) => {
        // Left before the answer was read (the page changed): the body is cut short, and nothing is shown.
        if (!controller.signal.aborted && answer) setWallet({ balance: answer.balance, currency: answer.currency });
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [refreshKey]);
  return wallet;
}
