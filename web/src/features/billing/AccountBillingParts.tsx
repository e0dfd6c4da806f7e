import { Trans, useLingui } from '@lingui/react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { Subscription } from '../../../../shared/billing.js';
import { STARS_PROVIDER_NAME } from '../../../../shared/billing-schemas.js';
import { useFormat } from '../../i18n/format';
import { BUTTON } from '../accounts/button-styles';
import { canCancelAutoRenew, canResume, describeRenewal, pastDueWarning, renewalStateOf } from './subscription-state';
import type { AccountsBilling } from './useAccountBilling';

/** Under an account's expiry: when it renews and for how much, that auto-renew is off, or that the payment failed. */
export function RenewalLine({ subscription }: { subscription: Subscription }) {
  const { _ } = useLingui();
  const format = useFormat();
  const text = describeRenewal(subscription, _, format);
  if (!text) return null;
  const failed = renewalStateOf(subscription).kind === 'pastDue';
  return <span className={`mt-1 block text-xs ${failed ? 'font-semibold text-amber-800' : 'text-slate-500'}`}>{text}</span>;
}

/** Cancel auto-renew or Resume, and Manage billing, for an account's running recurring subscription. */
export function AccountBillingButtons({ subscription, billing, who }: { subscription: Subscription; billing: AccountsBilling; who: string }) {
  const { _ } = useLingui();
  const busy = billing.busyId === subscription.id;
  const rowName = <span className="sr-only"> {who}</span>;
  return (
    <>
      {canCancelAutoRenew(subscription) && (
        <button type="button" disabled={busy} onClick={() => billing.onCancelAutoRenew(subscription)} className={BUTTON.smallSecondary}>
          {_('account.billing.cancelAutoRenew')}
          {rowName}
        </button>
      )}
      {canResume(subscription) && (
        <button type="button" disabled={busy} aria-busy={busy || undefined} onClick={() => billing.onResume(subscription)} className={BUTTON.smallSecondary}>
          {_(busy ? 'account.billing.resuming' : 'account.billing.resume')}
          {rowName}
        </button>
      )}
      {/* A plan the store renews has no provider billing page: its saved card is removed here instead. A Stars
          subscription is managed in Telegram (Settings → My Stars), where it was paid. */}
      {subscription.providerName === STARS_PROVIDER_NAME ? null : subscription.renewedHere ? (
        subscription.savedMethod && (
          <button type="button" disabled={busy} onClick={() => billing.onRemoveCard(subscription)} className={BUTTON.smallSecondary}>
            {_('account.savedCard.remove')}
            {rowName}
          </button>
        )
      ) : (
        <button
          type="button"
          disabled={billing.portalOpening}
          aria-busy={billing.portalOpening || undefined}
          onClick={billing.onManageBilling}
          className={BUTTON.smallSecondary}
        >
          {_(billing.portalOpening ? 'account.billing.opening' : 'account.billing.manage')}
          {rowName}
        </button>
      )}
    </>
  );
}

/**
 * Above the accounts: one warning per account whose renewal charge failed, with what to do and by
 * when, and a way to update the card.
 */
export function PastDueNotices({ accounts, billing }: { accounts: readonly VpnAccount[]; billing: AccountsBilling }) {
  const { _ } = useLingui();
  const format = useFormat();
  const pastDue = accounts.flatMap((account) => {
    const subscription = billing.subscriptions.get(account.id);
    return subscription && renewalStateOf(subscription).kind === 'pastDue' ? [{ account, subscription }] : [];
  });
  if (pastDue.length === 0) return null;
  return (
    <div className="mt-4 space-y-3">
      {pastDue.map(({ account, subscription }) => (
        <div
          key={subscription.id}
          className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="min-w-0 break-words">
            <Trans
              id="account.billing.pastDueNotice"
              values={{ username: account.username, warning: pastDueWarning(subscription, _, format) }}
              components={{ 0: <span className="font-semibold break-all" /> }}
            />
          </p>
          {/* A plan the store renews is tried again by itself, and may be renewed by hand meanwhile (its Renew button). */}
          {!subscription.renewedHere && subscription.providerName !== STARS_PROVIDER_NAME && (
            <button
              type="button"
              disabled={billing.portalOpening}
              onClick={billing.onManageBilling}
              className={`${BUTTON.smallSecondary} shrink-0 self-end sm:self-auto`}
            >
              <Trans id="account.billing.updateCard" values={{ username: account.username }} components={{ 0: <span className="sr-only" /> }} />
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
