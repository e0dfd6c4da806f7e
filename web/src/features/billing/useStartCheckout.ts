import { useCallback } from 'react';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import { billingApi } from '../../api/billing-endpoints';
import { useToast } from '../toast/toast-context';
import { checkoutRequestFor, type PaymentTarget } from './payment-target';

/**
 * Starts a card checkout for a target, says 'Subscription created successfully!' and sends the
 * browser to the provider's checkout page. A refused request rejects with its ApiError.
 */
export function useStartCheckout(): (target: PaymentTarget) => Promise<void> {
  const toast = useToast();
  return useCallback(
    async (target) => {
      const { url } = await billingApi.startCheckout(checkoutRequestFor(target));
      toast.success(BILLING_MESSAGES.subscriptionCreated);
      window.location.assign(url);
    },
    [toast],
  );
}
