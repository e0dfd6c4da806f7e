import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { Loading } from '../../../../web/src/components/Loading';
import { AccountsTable } from '../../../../web/src/features/accounts/AccountsTable';
import { BUTTON } from '../../../../web/src/features/accounts/button-styles';
import { ErrorBanner } from '../../../../web/src/features/accounts/ErrorBanner';
import { useAccountDialogs } from '../../../../web/src/features/accounts/useAccountDialogs';
import { useDashboardData } from '../../../../web/src/features/accounts/useDashboardData';
import { useWalletRenewToggle } from '../../../../web/src/features/accounts/useWalletRenewToggle';
import { useAuth } from '../../../../web/src/features/auth/auth-context';
import { useAccountBilling } from '../../../../web/src/features/billing/useAccountBilling';
import { PlansOnSaleContext } from '../../../../web/src/features/plans/usePlanText';
import { useIsolate } from '../../../../web/src/i18n/bidi';
import { useDesktopPlatform } from '../app/use-desktop-platform';
import { customerName } from '../../../../web/src/components/header/customer-name';

/**
 * The customer's VPN accounts, with the dashboard's table and dialogs. Plans are bought (and the
 * trial claimed) on the website in the system browser; the list reloads when the window is back in focus.
 */
export function AccountsPage() {
  const { _ } = useLingui();
  const desktop = useDesktopPlatform();
  const { user } = useAuth();
  const { plans, accounts, subscriptions, loadState, reload, removeAccount, replaceSubscription } = useDashboardData();
  const accountDialogs = useAccountDialogs({ removeAccount, onDeleted: () => void reload() });
  const accountBilling = useAccountBilling({ subscriptions, onChanged: replaceSubscription, onStale: () => void reload() });
  const [errorDismissed, setErrorDismissed] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const toggleWalletRenew = useWalletRenewToggle({ onChanged: reload, onError: setActionError });
  const isolated = useIsolate();

  useEffect(() => desktop.onFocus(() => void reload()), [desktop, reload]);

  const openShop = () => void desktop.openWebsite('/dashboard');

  async function retryLoad() {
    setErrorDismissed(false);
    await reload();
  }

  return (
    // Accounts and subscriptions name their plan in the app's language from the plans on sale.
    <PlansOnSaleContext value={plans}>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{_('desktop.accounts.title')}</h1>
            {user && <p className="mt-2 break-words text-slate-600">{_('desktop.accounts.signedInAs', { email: isolated(customerName(user, _)) })}</p>}
          </div>
          <div className="flex flex-col items-end gap-1">
            <button type="button" onClick={openShop} className={BUTTON.primary}>
              {accounts.length > 0 ? _('desktop.accounts.buyOrRenew') : _('desktop.accounts.getPlan')}
            </button>
            <p className="text-xs text-slate-500">{_('desktop.accounts.shopHint')}</p>
          </div>
        </div>

        {loadState === 'failed' && !errorDismissed && (
          <div className="mt-6">
            <ErrorBanner
              message={_('desktop.accounts.loadFailed')}
              onDismiss={() => setErrorDismissed(true)}
              action={
                <button type="button" onClick={() => void retryLoad()} className="shrink-0 font-semibold underline">
                  {_('desktop.accounts.retry')}
                </button>
              }
            />
          </div>
        )}

        {actionError && (
          <div className="mt-6">
            <ErrorBanner message={actionError} onDismiss={() => setActionError(null)} />
          </div>
        )}

        {loadState === 'loading' && <Loading />}

        {loadState === 'loaded' && (
          <div className="mt-8">
            <AccountsTable
              accounts={accounts}
              deletingId={accountDialogs.deletingId}
              actions={{ ...accountDialogs.actions, onRenew: openShop, onToggleWalletRenew: (account) => void toggleWalletRenew(account) }}
              billing={accountBilling.billing}
            />
          </div>
        )}

        {accountDialogs.dialogs}
        {accountBilling.dialogs}
      </div>
    </PlansOnSaleContext>
  );
}
