import { useLingui } from '@lingui/react';
import { useState, type ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { accountApi } from '../../api/account-endpoints';
import { AccountSetupDialog } from '../setup/AccountSetupDialog';
import { useToast } from '../toast/toast-context';
import type { AccountRowActions } from './AccountRow';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { ACCOUNT_UI_MESSAGES } from './messages';
import { QrDialog } from './QrDialog';
import { useCopyWithToast } from './useCopyWithToast';

type AccountDialog = { kind: 'setup' | 'qr' | 'delete'; account: VpnAccount } | null;

/**
 * The account table's own dialogs (setup, QR, delete confirmation) and actions, shared by the web
 * dashboard and the desktop app. `onDeleted` runs after an account was deleted (e.g. to reload).
 */
export function useAccountDialogs(options: { removeAccount(id: string): void; onDeleted(): void }) {
  const { _ } = useLingui();
  const toast = useToast();
  const copy = useCopyWithToast();
  const [dialog, setDialog] = useState<AccountDialog>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const close = () => setDialog(null);

  async function deleteAccount(account: VpnAccount) {
    setDeletingId(account.id);
    try {
      await accountApi.deleteAccount(account.id);
      options.removeAccount(account.id);
      toast.success(_(ACCOUNT_UI_MESSAGES.deleted));
      options.onDeleted();
    } catch {
      toast.error(_(ACCOUNT_UI_MESSAGES.deleteFailed));
    } finally {
      setDeletingId(null);
    }
  }

  const actions: Omit<AccountRowActions, 'onRenew'> = {
    onCopy: (account) => account.combinedUrl && void copy(account.combinedUrl, _(ACCOUNT_UI_MESSAGES.linkCopied)),
    onShowQr: (account) => setDialog({ kind: 'qr', account }),
    onSetup: (account) => setDialog({ kind: 'setup', account }),
    onDelete: (account) => setDialog({ kind: 'delete', account }),
  };

  const dialogs: ReactNode = (
    <>
      {dialog?.kind === 'setup' && <AccountSetupDialog account={dialog.account} onClose={close} />}
      {dialog?.kind === 'qr' && <QrDialog account={dialog.account} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteAccountDialog account={dialog.account} onConfirm={() => deleteAccount(dialog.account)} onClose={close} />}
    </>
  );

  return { actions, deletingId, dialogs, showSetup: (account: VpnAccount) => setDialog({ kind: 'setup', account }) };
}
