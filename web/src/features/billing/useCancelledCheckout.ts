import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { billingApi } from '../../api/billing-endpoints';
import { messageOrFallback } from '../accounts/error-message';

/**
 * Back from the provider's page with Cancel (/dashboard?checkout=cancelled&order=…): the checkout is
 * closed on the server (its waiting account goes), the customer is told, and the list reloads.
 */
export function useCancelledCheckout(handlers: { onCancelled: (message: string) => void; onPaid: () => void; onProblem: (message: string) => void }): void {
  const { _ } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const order = searchParams.get('checkout') === 'cancelled' ? searchParams.get('order') : null;
  const handled = useRef(false);
  const latest = useRef(handlers);
  latest.current = handlers;
  const translate = useRef(_);
  translate.current = _;

  useEffect(() => {
    if (!order || handled.current) return;
    handled.current = true;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        next.delete('order');
        return next;
      },
      { replace: true },
    );
    billingApi
      .cancelCheckout(order)
      .then(({ status }) => (status === 'succeeded' ? latest.current.onPaid() : latest.current.onCancelled(translate.current('pricing.checkout.cancelled'))))
      .catch((err: unknown) => latest.current.onProblem(messageOrFallback(err, translate.current('pricing.checkout.statusFailed'))));
  }, [order, setSearchParams]);
}
