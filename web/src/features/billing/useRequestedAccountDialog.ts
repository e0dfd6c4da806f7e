import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { PayLinkAction } from '../../../../shared/telegram-auth.js';

/** The query parameters that ask the dashboard to open an account's add-ons or plan change (a payment link from the bot). */
export const REQUESTED_DIALOG_PARAMS: Record<PayLinkAction, string> = { add_ons: 'add-ons', change_plan: 'change-plan' };

interface RequestedAccountDialogOptions {
  accounts: readonly VpnAccount[];
  /** The dashboard's accounts have loaded. */
  loaded: boolean;
  canPay: boolean;
  /** Opens the account's dialog for the action. */
  onOpen: (action: PayLinkAction, account: VpnAccount) => void;
  /** A message for the dashboard's error banner. */
  onProblem: (message: string) => void;
}

/**
 * The dashboard as the target of a payment link for an account's add-ons or plan change (`?add-ons=<accountId>`,
 * `?change-plan=<accountId>`): once the accounts are in, opens that dialog for the account, says why not otherwise
 * (not theirs, or still waiting for its first payment), and drops the parameter, so a reload does not ask again.
 */
export function useRequestedAccountDialog({ accounts, loaded, canPay, onOpen, onProblem }: RequestedAccountDialogOptions): void {
  const { _ } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const action = (Object.keys(REQUESTED_DIALOG_PARAMS) as PayLinkAction[]).find((candidate) => searchParams.has(REQUESTED_DIALOG_PARAMS[candidate]));
  const accountId = action ? searchParams.get(REQUESTED_DIALOG_PARAMS[action]) : null;
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!action || !accountId || !loaded || handled.current === `${action}:${accountId}`) return;
    handled.current = `${action}:${accountId}`;
    const account = accounts.find((candidate) => candidate.id === accountId);
    if (!account || account.planId === null || account.status === 'suspended') onProblem(_('pricing.requested.accountUnavailable'));
    else if (!canPay) onProblem(_('pricing.paymentsUnavailable'));
    else onOpen(action, account);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(REQUESTED_DIALOG_PARAMS[action]);
        return next;
      },
      { replace: true },
    );
  }, [action, accountId, loaded, accounts, canPay, onOpen, onProblem, setSearchParams, _]);
}
