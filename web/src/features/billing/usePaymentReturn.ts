import { useLingui } from '@lingui/react';
import { useEffect, useEffectEvent, useState } from 'react';
import { PAYMENT_POLL_INTERVAL_MS, PAYMENT_POLL_TIMEOUT_MS } from '../../../../shared/billing.js';
import { billingApi } from '../../api/billing-endpoints';
import { settleCheckoutStatus, type PaymentReturnState, type SettledPaymentReturn } from './payment-return';

export interface PaymentReturnOptions {
  /** Called once when the polling ends (not again on re-render), e.g. to toast and navigate. */
  onSettled?: (state: SettledPaymentReturn) => void;
}

/**
 * Confirms a return from card checkout: asks `GET /api/checkout/:sessionId` at once and then every
 * PAYMENT_POLL_INTERVAL_MS (one request at a time) until the account is ready or the payment failed;
 * gives up after PAYMENT_POLL_TIMEOUT_MS. A failed request (404, network) ends it as `error`.
 * Polling stops on unmount and restarts when `sessionId` changes; null means nothing to confirm.
 */
export function usePaymentReturn(sessionId: string | null, options: PaymentReturnOptions = {}): PaymentReturnState {
  const [state, setState] = useState<PaymentReturnState>(sessionId ? { kind: 'waiting', paid: false } : { kind: 'idle' });
  const { _ } = useLingui();
  const notifySettled = useEffectEvent((final: SettledPaymentReturn) => options.onSettled?.(final));
  // The fallback messages in the current language, without restarting the polling when `_` changes.
  const settleStatus = useEffectEvent((status: Parameters<typeof settleCheckoutStatus>[0]) => settleCheckoutStatus(status, _));

  useEffect(() => {
    if (!sessionId) {
      setState({ kind: 'idle' });
      return;
    }
    const controller = new AbortController();
    let pollTimer: ReturnType<typeof setTimeout> | undefined;

    function settle(final: SettledPaymentReturn) {
      if (controller.signal.aborted) return;
      controller.abort();
      clearTimeout(pollTimer);
      clearTimeout(deadline);
      setState(final);
      notifySettled(final);
    }

    async function poll(id: string) {
      try {
        const status = await billingApi.getCheckoutStatus(id, controller.signal);
        const final = settleStatus(status);
        if (final) settle(final);
        else if (!controller.signal.aborted) {
          setState({ kind: 'waiting', paid: status.status === 'succeeded', ...(status.crypto ? { crypto: status.crypto, currency: status.currency } : {}) });
          pollTimer = setTimeout(() => void poll(id), PAYMENT_POLL_INTERVAL_MS);
        }
      } catch {
        settle({ kind: 'error' });
      }
    }

    const deadline = setTimeout(() => settle({ kind: 'timedOut' }), PAYMENT_POLL_TIMEOUT_MS);
    setState({ kind: 'waiting', paid: false });
    void poll(sessionId);

    return () => {
      controller.abort();
      clearTimeout(pollTimer);
      clearTimeout(deadline);
    };
  }, [sessionId]);

  return state;
}
