import { useLingui } from '@lingui/react';
import { lazy, startTransition, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { OTP_RESEND_COOLDOWN_SECONDS } from '../../../../shared/constants.js';
import { referralCodeFrom } from '../../../../shared/referrals.js';
import { api } from '../../api';
import { useLocale } from '../../i18n/locale-context';
import { useToast } from '../toast/toast-context';
import { looksLikeEmail, pendingSignInEmail, rememberSignInEmail } from './pending-sign-in';
import { alertClass, errorText, inputClass, primaryButtonClass } from './sign-in-form-parts';

interface OtpSignInFormProps {
  /**
   * The label of the button back to the e-mail step, already in the page's language: 'Back' on the
   * landing page (`_('login.form.back')`); 'Back to Email' (`login.form.backToEmail`) when omitted.
   */
  backLabel?: string;
  initialEmail?: string;
  /** Where a successful sign-in goes (a checked same-site path); the dashboard by default. */
  next?: string;
  /**
   * Offers a field for a friend's referral code (or link) under the e-mail: the desktop app, which no referral link
   * opens. The site has the link's cookie instead.
   */
  askReferralCode?: boolean;
}

type Step = 'email' | 'code';

/**
 * The code step (OtpCodeStep.tsx) in a chunk of its own: nobody needs it before the e-mail was sent, so the pages with
 * the form (the landing page among them) leave it out of their first scripts and load it once the e-mail field is
 * focused or the form sent, well before the server has answered.
 */
const loadCodeStep = () => import('./OtpCodeStep');
const OtpCodeStep = lazy(loadCodeStep);
const preloadCodeStep = () => void loadCodeStep().catch(() => undefined);

/**
 * The two-step passwordless sign-in: e-mail, then the 6-digit code sent to it. The code step is in the
 * address (`?step=code`) and the address it was sent to in this tab's storage (never in the URL), so a reload (or a
 * phone reopening the tab) comes back to it. The form cannot be sent before the page's script has loaded (the
 * button stays disabled until then): a browser's own submit would only reload the page with the address in the URL.
 */
export function OtpSignInForm({ backLabel, initialEmail = '', next = '/dashboard', askReferralCode = false }: OtpSignInFormProps) {
  const { _ } = useLingui();
  const { locale } = useLocale();
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  // When a new code may be asked for (epoch ms).
  const [resendAt, setResendAt] = useState(0);
  const sentToast = useRef<number | null>(null);
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [referral, setReferral] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [invalidEmail, setInvalidEmail] = useState(false);
  const [ready, setReady] = useState(false);
  const stepChanged = useRef(false);

  // Applied after the first render, which must match the prerendered page (that has no e-mail).
  const codeStepAsked = searchParams.get('step') === 'code';
  useEffect(() => {
    setReady(true);
    const startEmail = initialEmail || pendingSignInEmail();
    if (startEmail) setEmail(startEmail);
    // A transition: the e-mail step stays on screen until the code step's chunk is in.
    if (codeStepAsked && startEmail) startTransition(() => setStep('code'));
  }, [initialEmail, codeStepAsked]);

  function dismissSentToast() {
    if (sentToast.current !== null) toast.dismiss(sentToast.current);
    sentToast.current = null;
  }

  useEffect(() => {
    if (stepChanged.current && step === 'email') emailRef.current?.focus();
  }, [step]);

  function goToStep(next: Step) {
    stepChanged.current = true;
    startTransition(() => {
      setStep(next);
      setSearchParams(
        (params) => {
          const kept = new URLSearchParams(params);
          kept.delete('email');
          if (next === 'code') {
            rememberSignInEmail(email.trim());
            kept.set('step', 'code');
          } else kept.delete('step');
          return kept;
        },
        { replace: true },
      );
    });
  }

  async function requestCode(): Promise<boolean> {
    setError(null);
    setBusy(true);
    try {
      // The page's language is the e-mail's.
      await api.auth.requestOtp(email.trim(), locale);
      dismissSentToast();
      sentToast.current = toast.info(_('login.toast.codeSent'));
      setResendAt(Date.now() + OTP_RESEND_COOLDOWN_SECONDS * 1000);
      return true;
    } catch (err) {
      setError(errorText(err, 'login.error.sendFailed', _));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function sendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!looksLikeEmail(email.trim())) {
      setInvalidEmail(true);
      emailRef.current?.focus();
      return;
    }
    setInvalidEmail(false);
    preloadCodeStep();
    if (await requestCode()) goToStep('code');
  }

  function backToEmail() {
    setError(null);
    dismissSentToast();
    goToStep('email');
  }

  return (
    <Suspense fallback={null}>
      {step === 'code' ? (
        <OtpCodeStep
          email={email.trim()}
          backLabel={backLabel ?? _('login.form.backToEmail')}
          next={next}
          focusOnShow={stepChanged.current}
          busy={busy}
          setBusy={setBusy}
          error={error}
          setError={setError}
          resendAt={resendAt}
          setResendAt={setResendAt}
          requestCode={requestCode}
          onBack={backToEmail}
          onSignedIn={dismissSentToast}
          referralCode={(askReferralCode && referralCodeFrom(referral)) || undefined}
        />
      ) : (
        <div>
          {error && (
            <div role="alert" className={alertClass}>
              {error}
            </div>
          )}
          <form method="post" noValidate onSubmit={(event) => void sendCode(event)} className="space-y-4">
            <div>
              <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-700">
                {_('login.form.emailLabel')}
              </label>
              <input
                ref={emailRef}
                id={`${id}-email`}
                name="email"
                type="email"
                required
                autoComplete="email"
                placeholder={_('login.form.emailPlaceholder')}
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  if (invalidEmail && looksLikeEmail(event.target.value.trim())) setInvalidEmail(false);
                }}
                onFocus={preloadCodeStep}
                readOnly={busy}
                aria-invalid={invalidEmail || undefined}
                aria-describedby={invalidEmail ? `${id}-email-error` : undefined}
                className={inputClass}
              />
              {invalidEmail && (
                <p id={`${id}-email-error`} className="mt-1 text-sm text-red-700">
                  {_('form.invalidEmail')}
                </p>
              )}
            </div>
            {askReferralCode && (
              <div>
                <label htmlFor={`${id}-referral`} className="block text-sm font-medium text-slate-700">
                  {_('login.form.referralLabel')}
                </label>
                <input
                  id={`${id}-referral`}
                  name="referralCode"
                  type="text"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={200}
                  aria-describedby={`${id}-referral-help`}
                  value={referral}
                  onChange={(event) => setReferral(event.target.value)}
                  readOnly={busy}
                  className={inputClass}
                />
                <p id={`${id}-referral-help`} className="mt-1 text-xs text-slate-500">
                  {_('login.form.referralHelp')}
                </p>
              </div>
            )}
            <button type="submit" disabled={busy || !ready} className={primaryButtonClass}>
              {busy ? _('login.form.sending') : _('login.form.sendCode')}
            </button>
          </form>
        </div>
      )}
    </Suspense>
  );
}
