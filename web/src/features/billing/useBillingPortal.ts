import { useLingui } from '@lingui/react';
import { useCallback, useState } from 'react';
import { billingApi } from '../../api/billing-endpoints';
import { usePlatform } from '../../platform/platform-context';
import { messageOrFallback } from '../accounts/error-message';
import { useToast } from '../toast/toast-context';

/** The query that makes the dashboard open the billing portal at once (linked from the renewal e-mails). */
export const MANAGE_BILLING_PARAM = { name: 'billing', value: 'manage' } as const;
export const MANAGE_BILLING_PATH = `/dashboard?${MANAGE_BILLING_PARAM.name}=${MANAGE_BILLING_PARAM.value}`;

export interface BillingPortal {
  /** Asks for a portal session and goes there; a refusal (no card on file yet, provider down) is toasted. */
  open: () => Promise<void>;
  /** True while the portal is being opened. */
  opening: boolean;
}

/**
 * The payment provider's billing portal (update the card, see invoices). The website goes there in
 * the same tab. The desktop app opens it in the system browser: directly when its platform can open
 * an outside page, else through the website's dashboard, which opens the portal from there.
 */
export function useBillingPortal(): BillingPortal {
  const { _ } = useLingui();
  const platform = usePlatform();
  const toast = useToast();
  const [opening, setOpening] = useState(false);

  const open = useCallback(async () => {
    if (platform.kind === 'desktop' && !platform.openExternal) {
      if (!(await platform.openWebsite(MANAGE_BILLING_PATH))) toast.error(_('account.billing.portalFailed'));
      return;
    }
    setOpening(true);
    try {
      const { url } = await billingApi.startBillingPortal();
      if (platform.kind === 'web') {
        window.location.assign(url);
        return; // the page is leaving: the button stays busy
      }
      if (!(await platform.openExternal?.(url))) toast.error(_('account.billing.portalFailed'));
    } catch (caught) {
      toast.error(messageOrFallback(caught, _('account.billing.portalFailed')));
    }
    setOpening(false);
  }, [platform, toast, _]);

  return { open, opening };
}
