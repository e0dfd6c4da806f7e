import { ERR } from '../../../../shared/errors.js';
import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { useState, type ReactNode } from 'react';
import type { Subscription } from '../../../../shared/billing.js';
import { isApiError } from '../../api';
import { billingApi } from '../../api/billing-endpoints';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { useToast } from '../toast/toast-context';
import { useIsolate } from '../../i18n/bidi';
import { useFormat, type Formatters } from '../../i18n/format';
import { useKeptPlanName } from '../plans/usePlanText';

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

/**
 * The spec's cancel question, for auto-renew: the account keeps working until the paid period ends.
 * `plan` is the plan's name as the page writes it (translated, isolated on a right-to-left page).
 */
function cancelQuestion(subscription: Subscription, plan: string, _: I18n['_'], format: Formatters): string {
  return subscription.currentPeriodEnd
    ? _('account.cancel.question', { plan, date: format.date(subscription.currentPeriodEnd) })
    : _('account.cancel.questionNoDate', { plan });
}

/**
 * Cancel auto-renew (after a confirmation) and Resume for a customer's recurring subscriptions,
 * with the success toasts. Shared by the accounts table and the transaction history dialog.
 */
export function useSubscriptionControls({ onChanged, onError, onStale }: SubscriptionControlsOptions): SubscriptionControls {
  const { _ } = useLingui();
  const format = useFormat();
  const toast = useToast();
  const planName = useKeptPlanName();
  const isolated = useIsolate();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Subscription | null>(null);

  async function change(subscription: Subscription, call: (id: string) => Promise<Subscription>, success: string) {
    setBusyId(subscription.id);
    try {
      onChanged(await call(subscription.id));
      toast.success(success);
    } catch (caught) {
      // Said in the customer's language: a one-off renewal already paid past the period auto-renew would charge.
      const message =
        isApiError(caught) && caught.code === ERR.paid_ahead
          ? _('account.billing.paidAhead')
          : messageOrFallback(caught, _('account.billing.subscriptionChangeFailed'));
      if (onError) onError(message);
      else toast.error(message);
      if (isApiError(caught) && STALE_CODES.has(caught.code)) onStale?.();
    } finally {
      setBusyId(null);
    }
  }

  const dialogs: ReactNode = confirming && (
    <ConfirmDialog
      title={_('account.cancel.title')}
      message={cancelQuestion(confirming, isolated(planName(confirming.planName, confirming.planId, confirming.planNames)), _, format)}
      confirmLabel={_('account.cancel.confirm')}
      busyLabel={_('account.cancel.busy')}
      cancelLabel={_('account.cancel.keep')}
      onConfirm={() => change(confirming, billingApi.cancelSubscription, _('account.billing.subscriptionCanceled'))}
      onClose={() => setConfirming(null)}
    />
  );

  return {
    busyId,
    requestCancel: setConfirming,
    resume: (subscription) => change(subscription, billingApi.resumeSubscription, _('account.billing.subscriptionResumed')),
    dialogs,
  };
}
