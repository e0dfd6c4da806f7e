import { useMemo, type ReactNode } from 'react';
import type { Subscription } from '../../../../shared/billing.js';
import { recurringByAccount } from './subscription-state';
import { useBillingPortal, type BillingPortal } from './useBillingPortal';
import { useSavedCardRemoval } from './useSavedCardRemoval';
import { useSubscriptionControls } from './useSubscriptionControls';

/** What the accounts table needs to show each account's renewal and its billing buttons. */
export interface AccountsBilling {
  /** Each account's running recurring subscription, by account id. */
  subscriptions: ReadonlyMap<string, Subscription>;
  /** The subscription whose change is under way, if any. */
  busyId: string | null;
  /** The billing portal is being opened. */
  portalOpening: boolean;
  onCancelAutoRenew: (subscription: Subscription) => void;
  onResume: (subscription: Subscription) => void;
  onManageBilling: () => void;
  /** A plan renewed by the store: removes the saved card it is charged with (after a question). */
  onRemoveCard: (subscription: Subscription) => void;
}

interface AccountBillingOptions {
  /** The caller's subscriptions, newest first (`GET /api/subscriptions`). */
  subscriptions: readonly Subscription[];
  /** Puts the server's answer after a cancel or resume in place of the old subscription. */
  onChanged: (updated: Subscription) => void;
  /** The subscriptions changed meanwhile: reload them. */
  onStale?: () => void;
}

export interface AccountBilling {
  /** For `AccountsTable`'s `billing`. */
  billing: AccountsBilling;
  /** The cancel confirmation; render it once. */
  dialogs: ReactNode;
  portal: BillingPortal;
}

/**
 * The customer's controls for their recurring subscriptions beside their accounts (the web
 * dashboard and the desktop app): renewal, Cancel auto-renew, Resume, and Manage billing (or, for a plan the
 * store renews with a saved card, Remove card).
 */
export function useAccountBilling({ subscriptions, onChanged, onStale }: AccountBillingOptions): AccountBilling {
  const controls = useSubscriptionControls({ onChanged, onStale });
  const cardRemoval = useSavedCardRemoval({ onRemoved: () => onStale?.() });
  const portal = useBillingPortal();
  const byAccount = useMemo(() => recurringByAccount(subscriptions), [subscriptions]);

  return {
    billing: {
      subscriptions: byAccount,
      busyId: controls.busyId,
      portalOpening: portal.opening,
      onCancelAutoRenew: controls.requestCancel,
      onResume: (subscription) => void controls.resume(subscription),
      onManageBilling: () => void portal.open(),
      onRemoveCard: cardRemoval.requestRemove,
    },
    dialogs: (
      <>
        {controls.dialogs}
        {cardRemoval.dialog}
      </>
    ),
    portal,
  };
}
