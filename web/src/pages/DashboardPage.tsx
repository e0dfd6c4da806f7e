import type { PayLinkAction } from '../../../shared/telegram-auth.js';
import { ERR } from '../../../shared/errors.js';
import { useLingui } from '@lingui/react';
import { Link, useNavigate } from 'react-router-dom';
import type { PaymentMethod } from '../../../shared/billing-schemas.js';
import { useCallback, useState } from 'react';
import type { Plan } from '../../../shared/plans.js';
import type { VpnAccount } from '../../../shared/accounts.js';
import type { PlanChangeStarted } from '../../../shared/plan-changes.js';
import { billingApi } from '../api/billing-endpoints';
import { ChangePlanDialog } from '../features/billing/ChangePlanDialog';
import { AddOnsDialog } from '../features/billing/AddOnsDialog';
import { accountApi } from '../api/account-endpoints';
import { isApiError } from '../api';
import { Loading } from '../components/Loading';
import { AccountsTable } from '../features/accounts/AccountsTable';
import { BUTTON } from '../features/accounts/button-styles';
import { ErrorBanner } from '../features/accounts/ErrorBanner';
import { messageOrFallback } from '../features/accounts/error-message';
import { ACCOUNT_UI_MESSAGES } from '../features/accounts/messages';
import { PlansGrid } from '../features/accounts/PlansGrid';
import { useAccountDialogs } from '../features/accounts/useAccountDialogs';
import { useDashboardData } from '../features/accounts/useDashboardData';
import { useWalletRenewToggle } from '../features/accounts/useWalletRenewToggle';
import { useAuth } from '../features/auth/auth-context';
import { PaymentDialog } from '../features/billing/PaymentDialog';
import { RedeemGiftDialog } from '../features/billing/RedeemGiftDialog';
import { PaymentPendingBanner } from '../features/billing/PaymentPendingBanner';
import { findRenewalPlan, type PaymentTarget } from '../features/billing/payment-target';
import { TransactionHistoryDialog } from '../features/billing/TransactionHistoryDialog';
import { useAccountBilling } from '../features/billing/useAccountBilling';
import { useDashboardPaymentReturn } from '../features/billing/useDashboardPaymentReturn';
import { useManageBillingRequest } from '../features/billing/useManageBillingRequest';
import { useRequestedAccountDialog } from '../features/billing/useRequestedAccountDialog';
import { useRequestedPlan } from '../features/billing/useRequestedPlan';
import { useRequestedRenewal } from '../features/billing/useRequestedRenewal';
import { useStartCheckout } from '../features/billing/useStartCheckout';
import { useConfig } from '../features/config/config-context';
import { PlansOnSaleContext } from '../features/plans/usePlanText';
import { TelegramLinkButton } from '../features/telegram/TelegramLinkButton';
import { useToast } from '../features/toast/toast-context';
import { useCancelledCheckout } from '../features/billing/useCancelledCheckout';
import { useIsolate } from '../i18n/bidi';
import { useFormat } from '../i18n/format';
import { useWalletBalance } from '../features/billing/useWalletBalance';
import { customerName } from '../components/header/customer-name';
import { AddEmailCard } from '../features/auth/AddEmailCard';
import { MyDataSection } from '../features/privacy/MyDataSection';
import { PasskeysCard } from '../features/passkeys/PasskeysCard';

type OpenDialog =
  | { kind: 'pay'; target: PaymentTarget }
  | { kind: 'history' }
  | { kind: 'gift' }
  | { kind: 'change'; account: VpnAccount }
  | { kind: 'add-ons'; account: VpnAccount }
  | null;

export default function DashboardPage() {
  const { _ } = useLingui();
  const { user, refreshUser } = useAuth();
  const toast = useToast();
  const { paymentMethods } = useConfig();
  const { plans, accounts, subscriptions, loadState, reload, removeAccount, replaceSubscription } = useDashboardData();
  // Read again whenever the accounts change (a purchase paid from it, a refund into it).
  const wallet = useWalletBalance(accounts);
  const format = useFormat();
  // A store that takes no payment method can still sell to a customer whose balance pays.
  const canPay = paymentMethods.length > 0 || (wallet?.balance ?? 0) > 0;
  const startCheckout = useStartCheckout();
  const navigate = useNavigate();
  const isolated = useIsolate();
  const [error, setError] = useState<string | null>(null);
  const [loadErrorDismissed, setLoadErrorDismissed] = useState(false);
  const [claimingPlanId, setClaimingPlanId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const accountDialogs = useAccountDialogs({ removeAccount, onDeleted: () => void reload() });
  const toggleWalletRenew = useWalletRenewToggle({ onChanged: reload, onError: setError });
  const accountBilling = useAccountBilling({ subscriptions, onChanged: replaceSubscription, onStale: () => void reload() });
  // Arriving from a renewal e-mail (/dashboard?billing=manage): the billing portal opens at once.
  useManageBillingRequest(accountBilling.portal.open);
  // Back from the payment page with Cancel: the checkout closes and no waiting account is left.
  useCancelledCheckout({
    onCancelled: (message) => {
      toast.info(message);
      void reload();
    },
    onPaid: () => void refreshAfterChange(),
    onProblem: setError,
  });
  const payment = useDashboardPaymentReturn({
    onReady: (account) => {
      accountDialogs.showSetup(account);
      void refreshAfterChange();
    },
    onTimedOut: () => void reload(),
    onProblem: setError,
  });
  const openPurchase = useCallback((plan: Plan) => setDialog({ kind: 'pay', target: { kind: 'buy', plan } }), []);
  // Arriving from the pricing page's 'Get' (/dashboard?plan=…): that plan's payment dialog opens; from a
  // free-trial form (?plan=trial): the trial is claimed and its setup dialog opens.
  useRequestedPlan({
    plans,
    loaded: loadState === 'loaded',
    canPay: canPay,
    trialUsed: user?.trialUsed ?? false,
    onClaimTrial: (plan) => void claimPlan(plan),
    onBuy: openPurchase,
    onProblem: setError,
  });
  const openRenewal = useCallback((target: PaymentTarget) => setDialog({ kind: 'pay', target }), []);
  // Arriving from a payment link of the Telegram bot for one of their accounts (/dashboard?renew=…): its renewal opens.
  useRequestedRenewal({ accounts, plans, loaded: loadState === 'loaded', canPay, onRenew: openRenewal, onProblem: setError });
  const openAccountDialog = useCallback(
    (action: PayLinkAction, account: VpnAccount) => setDialog(action === 'add_ons' ? { kind: 'add-ons', account } : { kind: 'change', account }),
    [],
  );
  // … or for its add-ons or a change of its plan (/dashboard?add-ons=…, ?change-plan=…): that dialog opens.
  useRequestedAccountDialog({ accounts, loaded: loadState === 'loaded', canPay, onOpen: openAccountDialog, onProblem: setError });

  async function refreshAfterChange() {
    const [loaded] = await Promise.all([reload(), refreshUser().catch(() => undefined)]);
    if (!loaded) setError(_(ACCOUNT_UI_MESSAGES.loadFailed));
  }

  async function claimPlan(plan: Plan) {
    setError(null);
    // A trial with a price is bought: its payment dialog (the server refuses a second trial).
    if (plan.price > 0) {
      if (canPay) openPurchase(plan);
      else setError(_('pricing.paymentsUnavailable'));
      return;
    }
    setClaimingPlanId(plan.id);
    try {
      const account = await accountApi.createAccount(plan.id);
      toast.success(_(plan.isTrial ? ACCOUNT_UI_MESSAGES.trialCreated : ACCOUNT_UI_MESSAGES.subscriptionCreated));
      accountDialogs.showSetup(account);
      await refreshAfterChange();
    } catch (caught) {
      setError(messageOrFallback(caught, _(ACCOUNT_UI_MESSAGES.createTrialFailed)));
      if (isApiError(caught) && caught.code === ERR.trial_used) await refreshUser().catch(() => undefined);
    } finally {
      setClaimingPlanId(null);
    }
  }

  async function pay(target: PaymentTarget, method: PaymentMethod, promoCode?: string) {
    setError(null);
    try {
      await startCheckout(target, method, promoCode);
    } catch (caught) {
      // A refused promo code, or a balance spent meanwhile, is the dialog's to say: the customer can change it and pay.
      if (isApiError(caught) && (caught.code === ERR.promo_invalid || caught.code === ERR.insufficient_balance)) throw caught;
      setDialog(null);
      setError(messageOrFallback(caught, _('account.billing.createSubscriptionFailed')));
    }
  }

  /** A plan change paid (to the payment page, or the thank-you page when nothing was left to pay), or set for the paid end. */
  function planChangeStarted(started: PlanChangeStarted) {
    if (started.takesEffect === 'now') {
      window.location.assign(started.url);
      return;
    }
    setDialog(null);
    toast.success(_('account.changePlan.scheduled'));
    void reload();
  }

  async function keepPlan(account: VpnAccount) {
    setError(null);
    try {
      await billingApi.cancelPlanChange(account.id);
      toast.success(_('account.changePlan.kept'));
      await reload();
    } catch (caught) {
      setError(messageOrFallback(caught, _('account.changePlan.failed')));
    }
  }

  async function retryLoad() {
    setError(null);
    if (!(await reload())) setError(_(ACCOUNT_UI_MESSAGES.loadFailed));
  }

  const shownError = error ?? (loadState === 'failed' && !loadErrorDismissed ? _(ACCOUNT_UI_MESSAGES.loadFailed) : null);
  const closeDialog = () => setDialog(null);

  const plansSection = (
    <PlansGrid
      key="plans"
      plans={plans}
      trialUsed={user?.trialUsed ?? false}
      claimingPlanId={claimingPlanId}
      onClaim={(plan) => void claimPlan(plan)}
      canPay={canPay}
      onBuy={openPurchase}
    />
  );
  const accountsSection = (
    <AccountsTable
      key="accounts"
      accounts={accounts}
      plansShown={plans.length > 0}
      deletingId={accountDialogs.deletingId}
      billing={accountBilling.billing}
      headerAction={
        <div className="flex flex-wrap gap-2">
          <Link to="/wallet" className={BUTTON.secondary}>
            {wallet ? _('account.wallet.open', { amount: format.money(wallet.balance, wallet.currency) }) : _('account.wallet.link')}
          </Link>
          <Link to="/referrals" className={BUTTON.secondary}>
            {_('account.referrals.open')}
          </Link>
          <button type="button" onClick={() => setDialog({ kind: 'gift' })} className={BUTTON.secondary}>
            {_('account.gift.open')}
          </button>
          <button type="button" onClick={() => setDialog({ kind: 'history' })} className={BUTTON.secondary}>
            {_('account.dashboard.transactionHistory')}
          </button>
          <TelegramLinkButton />
        </div>
      }
      actions={{
        ...accountDialogs.actions,
        onRenew: (account) => setDialog({ kind: 'pay', target: { kind: 'renew', account, plan: findRenewalPlan(plans, account) } }),
        onToggleWalletRenew: (account) => void toggleWalletRenew(account),
        onChangePlan: (account) => setDialog({ kind: 'change', account }),
        onKeepPlan: (account) => void keepPlan(account),
        onAddOns: (account) => setDialog({ kind: 'add-ons', account }),
      }}
    />
  );

  return (
    // Accounts, subscriptions and payments name their plan in the page's language from the plans on sale.
    <PlansOnSaleContext value={plans}>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{_('account.dashboard.title')}</h1>
        {user && <p className="mt-2 break-words text-slate-600">{_('account.dashboard.welcome', { email: isolated(customerName(user, _)) })}</p>}
        {user && user.email === null && <AddEmailCard />}

        {payment.kind === 'waiting' && (
          <div className="mt-6">
            <PaymentPendingBanner />
          </div>
        )}

        {shownError && (
          <div className="mt-6">
            <ErrorBanner
              message={shownError}
              onDismiss={() => {
                setError(null);
                setLoadErrorDismissed(true);
              }}
              action={
                loadState === 'failed' && (
                  <button type="button" onClick={() => void retryLoad()} className="shrink-0 font-semibold underline">
                    {_('account.dashboard.tryAgain')}
                  </button>
                )
              }
            />
          </div>
        )}

        {loadState === 'loading' && <Loading />}

        {loadState === 'loaded' && (
          <div className="mt-8 space-y-12">
            {/* Once the customer has accounts they come first: on a phone the plans would push them a screen down. */}
            {accounts.length > 0 ? [accountsSection, plansSection] : [plansSection, accountsSection]}
          </div>
        )}

        {loadState === 'loaded' && user && <PasskeysCard />}
        {loadState === 'loaded' && user && <MyDataSection />}

        {loadState === 'failed' && !shownError && (
          <button type="button" onClick={() => void retryLoad()} className={`${BUTTON.secondary} mt-6`}>
            {_('account.dashboard.tryAgain')}
          </button>
        )}

        {dialog?.kind === 'pay' && (
          <PaymentDialog
            target={dialog.target}
            methods={paymentMethods}
            onPay={(method, promoCode) => pay(dialog.target, method, promoCode)}
            onClose={closeDialog}
          />
        )}
        {dialog?.kind === 'change' && (
          <ChangePlanDialog account={dialog.account} plans={plans} methods={paymentMethods} onStarted={planChangeStarted} onClose={closeDialog} />
        )}
        {dialog?.kind === 'add-ons' && (
          <AddOnsDialog account={dialog.account} methods={paymentMethods} onStarted={(started) => window.location.assign(started.url)} onClose={closeDialog} />
        )}
        {dialog?.kind === 'history' && <TransactionHistoryDialog onClose={closeDialog} onSubscriptionChanged={replaceSubscription} />}
        {dialog?.kind === 'gift' && (
          <RedeemGiftDialog
            accounts={accounts}
            onClose={closeDialog}
            // The thank-you page follows the order as it follows a payment, and shows the account when it is ready.
            onRedeemed={(redeemed) => void navigate(`/thank-you?session_id=${encodeURIComponent(redeemed.sessionId)}`)}
          />
        )}
        {accountDialogs.dialogs}
        {accountBilling.dialogs}
      </div>
    </PlansOnSaleContext>
  );
}
