import { useLingui } from '@lingui/react';
import { useState, type ReactNode } from 'react';
import type { Subscription } from '../../../../shared/billing.js';
import { billingApi } from '../../api/billing-endpoints';
import { useIsolate } from '../../i18n/bidi';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { useToast } from '../toast/toast-context';

export interface SavedCardRemoval {
  /** Asks for confirmation, then removes the card the subscription renews with. */
  requestRemove: (subscription: Subscription) => void;
  /** The confirmation dialog; render it once. */
  dialog: ReactNode;
}

/**
 * Removing the card a plan renewed by the store is charged with (YooKassa's saved card): after a question that
 * says the plans it renews stop renewing, the card is removed and `onRemoved` reloads what is shown.
 */
export function useSavedCardRemoval({ onRemoved }: { onRemoved: () => void }): SavedCardRemoval {
  const { _ } = useLingui();
  const toast = useToast();
  const isolated = useIsolate();
  const [confirming, setConfirming] = useState<Subscription | null>(null);
  const card = confirming?.savedMethod;

  async function remove(id: string) {
    try {
      await billingApi.removePaymentMethod(id);
      toast.success(_('account.savedCard.removed'));
    } catch (caught) {
      toast.error(messageOrFallback(caught, _('account.savedCard.removeFailed')));
    } finally {
      onRemoved();
    }
  }

  const dialog: ReactNode = card && (
    <ConfirmDialog
      title={_('account.savedCard.removeTitle')}
      message={_('account.savedCard.removeQuestion', { card: isolated(card.title) })}
      confirmLabel={_('account.savedCard.removeConfirm')}
      busyLabel={_('account.savedCard.removing')}
      cancelLabel={_('account.savedCard.keep')}
      onConfirm={() => remove(card.id)}
      onClose={() => setConfirming(null)}
    />
  );

  return { requestRemove: setConfirming, dialog };
}
