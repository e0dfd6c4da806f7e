import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import type { VpnAccount } from '../../../shared/accounts.js';
import { BILLING_MESSAGES } from '../../../shared/billing.js';
import { NumberedStep, PageHero, PlatformLinks } from '../components/content';
import { CheckIcon } from '../components/content/content-icons';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../components/content/links';
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
  const navigate = useNavigate();
  const toast = useToast();
  const [setupAccount, setSetupAccount] = useState<VpnAccount | null>(null);
  const goToDashboard = () => void navigate('/dashboard', { replace: true });

  function onSettled(result: SettledPaymentReturn) {
    switch (result.kind) {
      case 'ready':
        toast.success(BILLING_MESSAGES.paymentSucceeded);
        setSetupAccount(result.account);
        break;
      case 'timedOut':
        toast.info(BILLING_MESSAGES.takingLonger);
        goToDashboard();
        break;
      case 'error':
        toast.error(BILLING_MESSAGES.checkStatusFailed);
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
        title="Thank You!"
        subtitle={failed ? 'Your payment could not be completed' : processing ? 'Payment processing' : 'Your payment has been processed successfully'}
      />
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-12 sm:px-6 sm:py-16">
        {payment.kind === 'failed' ? <PaymentFailedBox error={payment.error} /> : <NextSteps payment={payment} />}
        <div className="flex justify-center">
          <Link to="/dashboard" className={BUTTON_LINK_CLASS}>
            Go to Dashboard
          </Link>
        </div>
      </div>
      {setupAccount && <AccountSetupDialog account={setupAccount} onClose={goToDashboard} />}
    </>
  );
}

function PaymentFailedBox({ error }: { error: string }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      <p className="break-words">{error}</p>
      <p className="mt-2 text-sm">
        <Link to="/dashboard" className="font-semibold underline">
          Back to the dashboard
        </Link>
      </p>
    </div>
  );
}

/** Step 1 follows the payment: a spinner while the account is set up, a check mark once it is ready. */
function AccountStep({ payment }: { payment: PaymentReturnState }) {
  const ready = payment.kind === 'ready';
  const title = ready && payment.renewal ? 'Your VPN account has been renewed' : 'Your VPN account is being created';
  const marker = ready ? (
    <CheckIcon className="size-5" />
  ) : (
    <span className="size-5 animate-spin rounded-full border-2 border-indigo-300 border-t-white" />
  );

  return (
    <NumberedStep number={1} title={title} marker={marker}>
      <p role="status">
        {ready ? (
          <>
            <span className="font-semibold break-all text-slate-900">{payment.account.username}</span> is ready to use.
          </>
        ) : payment.kind === 'waiting' && payment.crypto ? (
          describeCryptoProgress(payment.crypto)
        ) : payment.kind === 'waiting' && !payment.paid ? (
          'Payment processing: your account is made as soon as the payment is confirmed. You can close this page; we e-mail you the receipt.'
        ) : (
          'Setting up your account...'
        )}
      </p>
    </NumberedStep>
  );
}

function NextSteps({ payment }: { payment: PaymentReturnState }) {
  return (
    <ol className="space-y-6">
      <AccountStep payment={payment} />
      <NumberedStep number={2} title="Install a VPN client app">
        <p>
          Install the free, open-source Hiddify app on each device. Pick yours for downloads, or see the{' '}
          <Link to="/help" className={TEXT_LINK_CLASS}>
            Help Center
          </Link>
          :
        </p>
        <PlatformLinks />
      </NumberedStep>
      <NumberedStep number={3} title="Import your subscription URL">
        <p>
          Copy your subscription URL from the setup window (or from My VPN Accounts), add it in the app, or scan its QR
          code with your phone, then press connect.
        </p>
      </NumberedStep>
    </ol>
  );
}
