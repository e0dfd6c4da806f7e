import { useLingui } from '@lingui/react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { accountApi } from '../../api/account-endpoints';
import { useToast } from '../toast/toast-context';
import { messageOrFallback } from './error-message';

/**
 * Auto-renew from the balance on or off for an account, shared by the dashboard and the desktop app.
 * A refusal (its plan is off sale, a card renews it) reaches `onError` in the server's words.
 */
export function useWalletRenewToggle({ onChanged, onError }: { onChanged: () => Promise<unknown>; onError: (message: string | null) => void }) {
  const { _ } = useLingui();
  const toast = useToast();

  return async function toggleWalletRenew(account: VpnAccount) {
    onError(null);
    const enabled = !account.autoRenewFromWallet;
    try {
      await accountApi.setAutoRenewFromWallet(account.id, enabled);
      toast.success(_(enabled ? 'account.walletRenew.on' : 'account.walletRenew.off'));
      await onChanged();
    } catch (caught) {
      onError(messageOrFallback(caught, _('account.walletRenew.failed')));
    }
  };
}
