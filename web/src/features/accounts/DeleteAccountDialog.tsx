import { useLingui } from '@lingui/react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { DAY_MS } from '../../../../shared/constants.js';
import { useKeptPlanName } from '../plans/usePlanText';
import { ConfirmDialog } from './ConfirmDialog';

/** Whole days left on an account (a part day counts), or null when it has no end or has ended. */
export function daysLeftOn(account: Pick<VpnAccount, 'expireDate'>, now = Date.now()): number | null {
  if (!account.expireDate) return null;
  const left = new Date(account.expireDate).getTime() - now;
  return left > 0 ? Math.ceil(left / DAY_MS) : null;
}

/**
 * "Delete this account?" naming the account (and its plan in the reader's language), and saying what the server
 * does with the time paid for: nothing is refunded or credited to the balance (accounts/delete-account.ts deletes
 * the panel user and the row; billing only stops a renewing subscription, so nothing more is charged).
 */
export function DeleteAccountDialog({ account, onConfirm, onClose }: { account: VpnAccount; onConfirm: () => Promise<void>; onClose: () => void }) {
  const { _ } = useLingui();
  const planName = useKeptPlanName();
  const plan = account.planName ? planName(account.planName, account.planId, account.planNames) : null;
  const days = daysLeftOn(account);
  const message = [
    plan ? _('account.delete.whatNamedPlan', { name: account.username, plan }) : _('account.delete.whatNamed', { name: account.username }),
    days !== null ? _('account.delete.daysLost', { days }) : _('account.delete.nothingRefunded'),
    _('account.delete.renewalStops'),
  ].join(' ');
  return (
    <ConfirmDialog
      title={_('account.delete.title')}
      message={message}
      confirmLabel={_('account.delete.confirm')}
      busyLabel={_('account.delete.busy')}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
