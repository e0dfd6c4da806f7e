import { useState, type ReactNode } from 'react';
import { BILLING_MESSAGES, type Subscription } from '../../../../shared/billing.js';
import { isApiError } from '../../api';
import { billingApi } from '../../api/billing-endpoints';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { useToast } from '../toast/toast-context';
import { formatDate } from './billing-format';

/** The answers that mean the subscription changed meanwhile (it ended, or was never recurring). */
const STALE_CODES: ReadonlySet<string> = new Set(['not_recurring', 'not_renewing']);

interface SubscriptionControlsOptions {
  /** The server's answer after a change, to show in place of the old subscription. */
  onChanged: (updated: Subscription) => void;
  /** Where a failure is said; a toast when omitted (a dialog that covers the toasts says it itself). */
  onError?: (message: string) => void;
  /** The subscription had changed meanwhile (a 409): reload what is shown. */
  onStale?: () => void;
}

export interface SubscriptionControls {
  /** The subscription whose change is under way, if any (its buttons are disabled meanwhile). */
  busyId: string | null;
  /** Asks for confirmation, then turns auto-renew off. */
  requestCancel: (subscription: Subscription) => void;
  /** Turns auto-renew back on (no question: it only undoes a cancel). */
  resume: (subscription: Subscription) => Promise<void>;
  /** The confirmation dialog; render it once. */
  dialogs: ReactNode;
}

/** The spec's cancel question, for auto-renew: the account keeps working until the paid period ends. */
function cancelQuestion(subscription: Subscription): string {
  const end = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : 'the end of the period you have paid for';
  return `Turn off auto-renew for ${subscription.planName}? Your account stays active until ${end}; it will not be renewed and your card will not be charged again.`;
}

/**
 * Cancel auto-renew (after a confirmation) and Resume for a customer's recurring subscriptions,
 * with the success toasts. Shared by the accounts table and the transaction history dialog.
 */
export function useSubscriptionControls({ onChanged, onError, onStale }: SubscriptionControlsOptions): SubscriptionControls {
  const toast = useToast();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Subscription | null>(null);

  async function change(subscription: Subscription, call: (id: string) => Promise<Subscription>, success: string) {
    setBusyId(subscription.id);
    try {
      onChanged(await call(subscription.id));
      toast.success(success);
    } catch (caught) {
      const message = messageOrFallback(caught, BILLING_MESSAGES.subscriptionChangeFailed);
      if (onError) onError(message);
      else toast.error(message);
      if (isApiError(caught) && STALE_CODES.has(caught.code)) onStale?.();
    } finally {
      setBusyId(null);
    }
  }

  const dialogs: ReactNode = confirming && (
    <ConfirmDialog
      title="Cancel auto-renew?"
      message={cancelQuestion(confirming)}
      confirmLabel="Cancel auto-renew"
      busyLabel="Canceling..."
      cancelLabel="Keep auto-renew"
      onConfirm={() => change(confirming, billingApi.cancelSubscription, BILLING_MESSAGES.subscriptionCanceled)}
      onClose={() => setConfirming(null)}
    />
  );

  return {
    busyId,
    requestCancel: setConfirming,
    resume: (subscription) => change(subscription, billingApi.resumeSubscription, BILLING_MESSAGES.subscriptionResumed),
    dialogs,
  };
}
