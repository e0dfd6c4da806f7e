import { useLingui } from '@lingui/react';
import { useSearchParams } from 'react-router-dom';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { useToast } from '../toast/toast-context';
import { readSessionId, type PaymentReturnState, type SettledPaymentReturn } from './payment-return';
import { usePaymentReturn } from './usePaymentReturn';

interface DashboardPaymentHandlers {
  /** The account is paid for and ready: reload the page's data and show its setup dialog. */
  onReady: (account: VpnAccount) => void;
  /** The payment may have gone through meanwhile: reload the page's data. */
  onTimedOut: () => void;
  /** A message for the dashboard's error banner. */
  onProblem: (message: string) => void;
}

/**
 * The dashboard as a return address from card checkout (`?session_id=`): confirms the payment,
 * toasts the outcome, and drops `session_id` from the address once there is an answer. After a
 * failed status request it stays, so that refreshing the page checks again.
 */
export function useDashboardPaymentReturn({ onReady, onTimedOut, onProblem }: DashboardPaymentHandlers): PaymentReturnState {
  const { _ } = useLingui();
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();

  function forgetSession() {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('session_id');
        return next;
      },
      { replace: true },
    );
  }

  function onSettled(result: SettledPaymentReturn) {
    switch (result.kind) {
      case 'ready':
        toast.success(_('account.billing.paymentSucceeded'));
        onReady(result.account);
        forgetSession();
        break;
      case 'failed':
        onProblem(result.error);
        forgetSession();
        break;
      case 'timedOut':
        toast.info(_('account.billing.takingLonger'));
        onTimedOut();
        forgetSession();
        break;
      case 'error':
        onProblem(_('account.billing.checkStatusFailedDashboard'));
        break;
    }
  }

  return usePaymentReturn(readSessionId(searchParams), { onSettled });
}
