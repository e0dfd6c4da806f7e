import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { Plan } from '../../../../shared/plans.js';
import { renewalTargetFor, type PaymentTarget } from './payment-target';

/** The query parameter that asks the dashboard to open the renewal of one of the customer's accounts (a payment link from the bot). */
export const REQUESTED_RENEWAL_PARAM = 'renew';

interface RequestedRenewalOptions {
  accounts: readonly VpnAccount[];
  plans: readonly Plan[];
  /** The dashboard's accounts and plans have loaded. */
  loaded: boolean;
  canPay: boolean;
  /** Opens the payment dialog for the renewal. */
  onRenew: (target: PaymentTarget) => void;
  /** A message for the dashboard's error banner. */
  onProblem: (message: string) => void;
}

/**
 * The dashboard as the target of a renewal link (`?renew=<accountId>`, where a payment link from the bot leads): once
 * the accounts are in, opens the payment dialog for that account's renewal, says why not otherwise (not theirs, or
 * not renewable), and drops the parameter from the address either way, so a reload does not ask again.
 */
export function useRequestedRenewal({ accounts, plans, loaded, canPay, onRenew, onProblem }: RequestedRenewalOptions): void {
  const { _ } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const accountId = searchParams.get(REQUESTED_RENEWAL_PARAM);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!accountId || !loaded || handled.current === accountId) return;
    handled.current = accountId;
    const target = renewalTargetFor(accounts, plans, accountId);
    if (!target) onProblem(_('pricing.requested.renewalUnavailable'));
    else if (!canPay) onProblem(_('pricing.paymentsUnavailable'));
    else onRenew(target);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(REQUESTED_RENEWAL_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [accountId, loaded, accounts, plans, canPay, onRenew, onProblem, setSearchParams, _]);
}
