import { Trans, useLingui } from '@lingui/react';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import type { VpnAccount } from '../../../shared/accounts.js';
import { NumberedStep, PageHero, PlatformLinks } from '../components/content';
import { CheckIcon } from '../components/content/content-icons';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../components/content/links';
import { useIsolate } from '../i18n/bidi';
import { useFormat } from '../i18n/format';
import { useLocale } from '../i18n/locale-context';
import { keptPlanName } from '../features/plans/plan-names';
import { usePlanCatalog } from '../features/plans/plan-catalog-context';
import { useConfig } from '../features/config/config-context';
import { describeCryptoProgress, readSessionId, type PaymentReturnState, type SettledPaymentReturn } from '../features/billing/payment-return';
import { usePaymentReturn } from '../features/billing/usePaymentReturn';
import { AccountSetupDialog } from '../features/setup/AccountSetupDialog';
import { useToast } from '../features/toast/toast-context';

/** The return address after card checkout (`?session_id=`); without a session it goes to the dashboard. */
export default function ThankYouPage() {
  const [searchParams] = useSearchParams();
  const sessionId = readSessionId(searchParams);
  if (!sessionId) return <Navigate to="/dashboard" replace />;
  return <PaymentConfirmation sessionId={sessionId} />;
}

/**
 * 'Thank You!' with the three next steps, while the payment is confirmed. Once the account is ready
 * its setup dialog opens (closing it goes to the dashboard); a timeout or a failed check goes to the
 * dashboard with a toast; a failed payment is shown here.
 */
function PaymentConfirmation({ sessionId }: { sessionId: string }) {
  const { _ } = useLingui();
  const navigate = useNavigate();
  const toast = useToast();
  const [setupAccount, setSetupAccount] = useState<VpnAccount | null>(null);
  const goToDashboard = () => void navigate('/dashboard', { replace: true });

  function onSettled(result: SettledPaymentReturn) {
    switch (result.kind) {
      case 'ready':
        toast.success(_('account.billing.paymentSucceeded'));
        setSetupAccount(result.account);
        break;
      case 'timedOut':
        toast.info(_('account.billing.takingLonger'));
        goToDashboard();
        break;
      case 'error':
        toast.error(_('account.billing.checkStatusFailed'));
        goToDashboard();
        break;
      case 'failed':
        break; // shown on the page
    }
  }

  const payment = usePaymentReturn(sessionId, { onSettled });
  const failed = payment.kind === 'failed';
  const processing = payment.kind === 'waiting' && !payment.paid;

  return (
    <>
      <PageHero
        title={_('account.thankYou.title')}
        subtitle={_(failed ? 'account.thankYou.failedSubtitle' : processing ? 'account.thankYou.processingSubtitle' : 'account.thankYou.successSubtitle')}
      />
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-12 sm:px-6 sm:py-16">
        {payment.kind === 'failed' ? <PaymentFailedBox error={payment.error} /> : <NextSteps payment={payment} />}
        <div className="flex justify-center">
          <Link to="/dashboard" className={BUTTON_LINK_CLASS}>
            {_('account.thankYou.goToDashboard')}
          </Link>
        </div>
      </div>
      {setupAccount && <AccountSetupDialog account={setupAccount} onClose={goToDashboard} />}
    </>
  );
}

function PaymentFailedBox({ error }: { error: string }) {
  const { _ } = useLingui();
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      <p className="break-words">{error}</p>
      <p className="mt-2 text-sm">
        <Link to="/dashboard" className="font-semibold underline">
          {_('account.thankYou.backToDashboard')}
        </Link>
      </p>
    </div>
  );
}

/** Step 1 follows the payment: a spinner while the account is set up, a check mark once it is ready. */
function AccountStep({ payment }: { payment: PaymentReturnState }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { currency: storeCurrency } = useConfig();
  const ready = payment.kind === 'ready';
  const isolated = useIsolate();
  const { locale } = useLocale();
  const { plans } = usePlanCatalog();
  // A plan bought within the trial: the trial's own account became it.
  const trialBecame = ready && payment.change === 'trial';
  // The plan in the page's language (from the plans on sale), as the dashboard names it.
  const planName = (account: VpnAccount) =>
    account.planName ? keptPlanName(plans ?? [], account.planName, locale, account.planId, account.planNames) : account.username;
  const title = trialBecame
    ? _('account.thankYou.trialConverted', { plan: isolated(planName(payment.account)) })
    : _(
        !ready
          ? 'account.thankYou.creating'
          : payment.change === 'plan'
            ? 'account.thankYou.planChanged'
            : payment.change === 'add_on'
              ? 'account.thankYou.addOnActive'
              : payment.renewal
                ? 'account.thankYou.renewed'
                : 'account.thankYou.creating',
      );
  const marker = ready ? <CheckIcon className="size-5" /> : <span className="size-5 animate-spin rounded-full border-2 border-indigo-300 border-t-white" />;

  return (
    <NumberedStep number={1} title={title} marker={marker}>
      <p role="status">
        {ready ? (
          <Trans
            id={trialBecame ? 'account.thankYou.trialKept' : 'account.thankYou.ready'}
            values={{ username: payment.account.username }}
            components={{ 0: <span className="font-semibold break-all text-slate-900" /> }}
          />
        ) : payment.kind === 'waiting' && payment.crypto ? (
          describeCryptoProgress(payment.crypto, payment.currency ?? storeCurrency, _, format)
        ) : payment.kind === 'waiting' && !payment.paid ? (
          _('account.thankYou.processing')
        ) : (
          _('account.thankYou.settingUp')
        )}
      </p>
    </NumberedStep>
  );
}

function NextSteps({ payment }: { payment: PaymentReturnState }) {
  const { _ } = useLingui();
  return (
    <ol className="space-y-6">
      <AccountStep payment={payment} />
      <NumberedStep number={2} title={_('account.thankYou.installTitle')}>
        <p>
          <Trans id="account.thankYou.installText" components={{ 0: <Link to="/help" className={TEXT_LINK_CLASS} /> }} />
        </p>
        <PlatformLinks />
      </NumberedStep>
      <NumberedStep number={3} title={_('account.thankYou.importTitle')}>
        <p>{_('account.thankYou.importText')}</p>
      </NumberedStep>
    </ol>
  );
}
