import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MANAGE_BILLING_PARAM } from './useBillingPortal';

/**
 * The dashboard as the renewal e-mails' link (`?billing=manage`): opens the billing portal once, at
 * once, and drops the parameter from the address, so a reload or Back does not open it again.
 */
export function useManageBillingRequest(openPortal: () => Promise<void>): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(MANAGE_BILLING_PARAM.name) === MANAGE_BILLING_PARAM.value;
  const handled = useRef(false);

  useEffect(() => {
    if (!requested || handled.current) return;
    handled.current = true;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(MANAGE_BILLING_PARAM.name);
        return next;
      },
      { replace: true },
    );
    void openPortal();
  }, [requested, openPortal, setSearchParams]);
}
