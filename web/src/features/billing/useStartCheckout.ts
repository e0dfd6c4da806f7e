import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import { billingApi } from '../../api/billing-endpoints';
import { useToast } from '../toast/toast-context';
import { checkoutRequestFor, type PaymentTarget } from './payment-target';
import { forgetPromo } from './remembered-promo';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';

/**
 * Starts a checkout (by card unless `method` says crypto) for a target, says 'Subscription created successfully!' and sends the
 * browser to the provider's checkout page. A refused request rejects with its ApiError.
 */
export function useStartCheckout(): (target: PaymentTarget, method?: PaymentMethod, promoCode?: string) => Promise<void> {
  const { _ } = useLingui();
  const toast = useToast();
  return useCallback(
    async (target, method, promoCode) => {
      const { url } = await billingApi.startCheckout(checkoutRequestFor(target, method, promoCode));
      if (promoCode) forgetPromo();
      toast.success(_('pricing.checkout.created'));
      window.location.assign(url);
    },
    [toast, _],
  );
}
