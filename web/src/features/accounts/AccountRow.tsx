import { Trans, useLingui } from '@lingui/react';
import { Fragment, type ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { AccountBillingButtons, RenewalLine } from '../billing/AccountBillingParts';
import { replacesManualRenewal } from '../billing/subscription-state';
import type { AccountsBilling } from '../billing/useAccountBilling';
import type { DevicesState } from '../devices/device-source';
import { DevicesButton } from '../devices/DevicesButton';
import { BUTTON } from './button-styles';
import { useKeptPlanName, usePlanNameById } from '../plans/usePlanText';
import { useFormat } from '../../i18n/format';
import { useRegionName } from './region-name';
import { StatusBadge } from './StatusBadge';
import { DAY_MS } from '../../../../shared/constants.js';

/** An account set to renew from the balance renews a day before it ends (wallet-renewals.ts). */
const walletRenewalDay = (expireDate: string): string => new Date(new Date(expireDate).getTime() - DAY_MS).toISOString();

export interface AccountRowActions {
  onCopy: (account: VpnAccount) => void;
  onShowQr: (account: VpnAccount) => void;
  onSetup: (account: VpnAccount) => void;
  onDelete: (account: VpnAccount) => void;
  /** Pays for another period (shown for accounts with `renewable`, unless a subscription renews them). */
  onRenew: (account: VpnAccount) => void;
  /** Turns auto-renew from the balance on or off (offered where Renew is; the web dashboard has it). */
  onToggleWalletRenew?: (account: VpnAccount) => void;
  /** Switches the account to another plan, or calls off a switch set for its paid end (the web dashboard has them). */
  onChangePlan?: (account: VpnAccount) => void;
  onKeepPlan?: (account: VpnAccount) => void;
  /** Lists what the account can buy on top of its plan (more devices, more traffic) and what it has. */
  onAddOns?: (account: VpnAccount) => void;
}

/** A cell that stacks as "label: value" on phones, where the table's header row is hidden. */
function Cell({ label, children, className = '' }: { label: string; children: ReactNode; className?: string }) {
  return (
    <td className={`flex items-start justify-between gap-4 px-4 py-1.5 md:table-cell md:py-3 ${className}`}>
      <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase md:hidden">{label}</span>
      <span className="min-w-0 text-end md:text-start">{children}</span>
    </td>
  );
}

interface AccountRowProps {
  account: VpnAccount;
  deleting: boolean;
  actions: AccountRowActions;
  /** The customer's recurring subscriptions and their controls; without it, no renewal is shown. */
  billing?: AccountsBilling;
  /** The account's devices and the button that lists them; none for an account without a link. */
  devices?: { state: DevicesState; open: () => void };
}

/**
 * One account: status, expiry (and its renewal), data, its link with Copy and QR, and Setup, Devices,
 * Renew (or the subscription's Cancel auto-renew / Resume and Manage billing) and Delete.
 */
export function AccountRow({ account, deleting, actions, billing, devices }: AccountRowProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const regionName = useRegionName();
  const url = account.combinedUrl;
  const who = account.username;
  const subscription = billing?.subscriptions.get(account.id);
  const planName = useKeptPlanName();
  const planNameById = usePlanNameById();
  // The names its order kept in the other languages: the plan reads in them even once it is off sale.
  // The plan's names now (on sale or not), else those its order kept.
  const keptNames = account.planNames ?? (subscription && subscription.planName === account.planName ? subscription.planNames : undefined);

  return (
    <tr className="block py-3 md:table-row md:py-0">
      <th scope="row" className="block px-4 py-1.5 text-start font-normal md:table-cell md:py-3">
        <span className="block font-semibold break-all text-slate-900">
          <bdi>{who}</bdi>
        </span>
        {(account.server || account.planName) && (
          <span className="block text-xs text-slate-500">
            {[account.planName && planName(account.planName, account.planId, keptNames), account.server && regionName(account.server)]
              .filter(Boolean)
              .map((part, index) => (
                <Fragment key={index}>
                  {index > 0 && format.separator}
                  <bdi>{part}</bdi>
                </Fragment>
              ))}
          </span>
        )}
      </th>
      <Cell label={_('account.table.status')}>
        <StatusBadge status={account.status} paymentConfirmed={account.paymentConfirmed} />
        {account.status === 'suspended' && account.paymentConfirmed && (
          <span className="mt-1 block text-xs text-slate-500">{_('account.row.paymentConfirmed')}</span>
        )}
      </Cell>
      <Cell label={_('account.table.expires')}>
        {/* A renewing account's panel expiry carries the grace period: the renewal date is what the customer needs.
            A plan the store renews has no grace, and is charged days before it ends: both dates are shown. */}
        {!(subscription?.autoRenews && subscription.status === 'active' && !subscription.renewedHere) && (
          <span className="whitespace-nowrap">{format.expiry(account.expireDate)}</span>
        )}
        {subscription && <RenewalLine subscription={subscription} />}
        {account.scheduledPlanChange && (
          <span className="mt-1 block text-xs text-slate-500" data-testid="scheduled-change">
            {_('account.changePlan.scheduledLine', {
              plan: planNameById(account.scheduledPlanChange.planId) ?? _('account.changePlan.anotherPlan'),
              date: format.date(account.scheduledPlanChange.effectiveAt),
            })}
            {actions.onKeepPlan && (
              <button type="button" onClick={() => actions.onKeepPlan?.(account)} className="ms-2 font-semibold text-emerald-700 underline">
                {_('account.changePlan.keep')}
              </button>
            )}
          </span>
        )}
        {account.autoRenewFromWallet && account.expireDate && (
          <span className="mt-1 block text-xs text-slate-500">
            {_('account.walletRenew.line', { date: format.date(walletRenewalDay(account.expireDate)) })}
          </span>
        )}
      </Cell>
      <Cell label={_('account.table.dataLimit')} className="whitespace-nowrap">
        {format.dataLimit(account.dataLimitBytes)}
      </Cell>
      <Cell label={_('account.table.trafficUsed')}>
        <span className="whitespace-nowrap">{format.bytes(account.usedTrafficBytes)}</span>
        {account.usageStale && <span className="block text-xs text-amber-700">{_('account.row.lastKnown')}</span>}
      </Cell>
      <Cell label={_('account.row.link')}>
        {url ? (
          // One line, cut with an ellipsis on that line (CSS): never a '…' wrapped onto a line of its own.
          <code dir="ltr" className="block max-w-[30ch] truncate font-mono text-xs text-slate-700" title={url}>
            {url}
          </code>
        ) : (
          <span className="text-xs text-slate-500">{_('account.row.notReady')}</span>
        )}
        <span className="mt-1.5 flex justify-end gap-2 md:justify-start">
          <button type="button" disabled={!url} onClick={() => actions.onCopy(account)} className={BUTTON.smallSecondary}>
            <Trans id="account.row.copy" values={{ who }} components={{ 0: <span className="sr-only" /> }} />
          </button>
          <button type="button" disabled={!url} onClick={() => actions.onShowQr(account)} className={BUTTON.smallSecondary}>
            <Trans id="account.row.qr" values={{ who }} components={{ 0: <span className="sr-only" /> }} />
          </button>
        </span>
      </Cell>
      <td className="flex justify-end gap-2 px-4 pt-2.5 pb-1.5 md:table-cell md:py-3">
        <span className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={() => actions.onSetup(account)} className={BUTTON.smallSecondary}>
            {_('account.row.setup')}
            <span className="sr-only"> {who}</span>
          </button>
          {devices && <DevicesButton state={devices.state} who={who} onOpen={devices.open} className={BUTTON.smallSecondary} />}
          {account.renewable && !replacesManualRenewal(subscription) && (
            <button type="button" onClick={() => actions.onRenew(account)} className={BUTTON.smallSecondary}>
              {_('account.row.renew')}
              <span className="sr-only"> {who}</span>
            </button>
          )}
          {actions.onToggleWalletRenew && (account.autoRenewFromWallet || (account.renewable && !subscription)) && (
            <button
              type="button"
              aria-pressed={account.autoRenewFromWallet}
              onClick={() => actions.onToggleWalletRenew?.(account)}
              className={account.autoRenewFromWallet ? BUTTON.smallPressed : BUTTON.smallSecondary}
            >
              {_('account.walletRenew.toggle')}
              <span className="sr-only"> {who}</span>
            </button>
          )}
          {actions.onChangePlan && account.planId && account.status !== 'suspended' && !account.scheduledPlanChange && (
            <button type="button" onClick={() => actions.onChangePlan?.(account)} className={BUTTON.smallSecondary}>
              {_('account.changePlan.open')}
              <span className="sr-only"> {who}</span>
            </button>
          )}
          {actions.onAddOns && account.planId && account.status !== 'suspended' && (
            <button type="button" onClick={() => actions.onAddOns?.(account)} className={BUTTON.smallSecondary}>
              {_('account.addOns.open')}
              <span className="sr-only"> {who}</span>
            </button>
          )}
          {subscription && billing && <AccountBillingButtons subscription={subscription} billing={billing} who={who} />}
          {account.status !== 'suspended' && (
            <button type="button" disabled={deleting} onClick={() => actions.onDelete(account)} className={BUTTON.smallDanger}>
              {_(deleting ? 'account.row.deleting' : 'account.row.delete')}
              <span className="sr-only"> {who}</span>
            </button>
          )}
        </span>
      </td>
    </tr>
  );
}
