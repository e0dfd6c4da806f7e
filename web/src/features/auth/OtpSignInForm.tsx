import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { OTP_LENGTH, OTP_RESEND_COOLDOWN_SECONDS } from '../../../../shared/constants.js';
import { MESSAGES, type CodeStatus } from '../../../../shared/errors.js';
import { api, getErrorMessage, isApiError } from '../../api';
import { useToast } from '../toast/toast-context';
import { useAuth } from './auth-context';

interface OtpSignInFormProps {
  /** 'Back' on the landing page, 'Back to Email' on /login. */
  backLabel: string;
  initialEmail?: string;
  /** Where a successful sign-in goes (a checked same-site path); the dashboard by default. */
  next?: string;
}

type Step = 'email' | 'code';

/** What to do after a refused code, under the spec's 'Invalid OTP'. */
function codeHint(status: CodeStatus): string | null {
  if (status.reason === 'locked') return 'Too many wrong tries: this code no longer works. Send a new code to try again.';
  if (status.reason === 'expired') return 'This code has expired or was already used. Send a new code.';
  return status.attemptsLeft === 1 ? '1 try left for this code.' : `${status.attemptsLeft} tries left for this code.`;
}

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 read-only:bg-slate-50';
const primaryButtonClass =
  'w-full rounded-lg bg-indigo-600 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60';

/**
 * The two-step passwordless sign-in: e-mail, then the 6-digit code sent to it. The code step is in the
 * address (`?step=code&email=…`), so a reload (or a phone reopening the tab) comes back to it.
 */
export function OtpSignInForm({ backLabel, initialEmail = '', next = '/dashboard' }: OtpSignInFormProps) {
  const { setUser } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [codeStatus, setCodeStatus] = useState<CodeStatus | null>(null);
  // When a new code may be asked for (epoch ms), and the time the countdown last looked.
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(0);
  const resendIn = Math.max(0, Math.ceil((resendAt - now) / 1000));
  const startCountdown = (seconds: number) => {
    setNow(Date.now());
    setResendAt(Date.now() + seconds * 1000);
  };
  const sentToast = useRef<number | null>(null);
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stepChanged = useRef(false);

  // Applied after the first render, which must match the prerendered page (that has no e-mail).
  const startEmail = initialEmail || (searchParams.get('email') ?? '');
  const resumeCodeStep = searchParams.get('step') === 'code' && startEmail !== '';
  useEffect(() => {
    if (startEmail) setEmail(startEmail);
    if (resumeCodeStep) setStep('code');
  }, [startEmail, resumeCodeStep]);

  // The resend countdown: the clock read every second until the deadline passes.
  useEffect(() => {
    if (resendAt <= Date.now()) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= resendAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

  function dismissSentToast() {
    if (sentToast.current !== null) toast.dismiss(sentToast.current);
    sentToast.current = null;
  }

  useEffect(() => {
    if (!stepChanged.current) return;
    (step === 'code' ? codeRef : emailRef).current?.focus();
  }, [step]);

  function goToStep(next: Step) {
    stepChanged.current = true;
    setStep(next);
    setSearchParams((params) => {
      const kept = new URLSearchParams(params);
      if (next === 'code') {
        kept.set('step', 'code');
        kept.set('email', email.trim());
      } else kept.delete('step');
      return kept;
    }, { replace: true });
  }

  async function requestCode(): Promise<boolean> {
    setError(null);
    setCodeStatus(null);
    setBusy(true);
    try {
      // The page's language (<html lang>) is the e-mail's.
      await api.auth.requestOtp(email.trim(), document.documentElement.lang || undefined);
      dismissSentToast();
      sentToast.current = toast.info(MESSAGES.otpSent);
      setCode('');
      startCountdown(OTP_RESEND_COOLDOWN_SECONDS);
      return true;
    } catch (err) {
      setError(getErrorMessage(err, MESSAGES.otpSendFailed));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function sendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await requestCode()) goToStep('code');
  }

  async function sendNewCode() {
    if (await requestCode()) codeRef.current?.focus();
  }

  async function verifyCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const { user } = await api.auth.verifyOtp(email.trim(), code);
      dismissSentToast();
      setUser(user);
      await navigate(next, { replace: true });
    } catch (err) {
      setError(getErrorMessage(err, MESSAGES.invalidOtp));
      const status = isApiError(err) ? err.codeStatus : undefined;
      setCodeStatus(status ?? null);
      if (status) startCountdown(status.resendInSeconds);
      setBusy(false);
    }
  }

  function backToEmail() {
    setError(null);
    setCodeStatus(null);
    setCode('');
    dismissSentToast();
    goToStep('email');
  }

  const needsNewCode = codeStatus !== null && codeStatus.reason !== 'wrong';

  return (
    <div>
      {error && (
        <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {error}
          {codeStatus && <p className="mt-1 text-red-700">{codeHint(codeStatus)}</p>}
        </div>
      )}

      {step === 'email' ? (
        <form onSubmit={sendCode} className="space-y-4">
          <div>
            <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-700">
              Email address
            </label>
            <input
              ref={emailRef}
              id={`${id}-email`}
              name="email"
              type="email"
              required
              autoComplete="email"
              placeholder="Your e-mail address"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              readOnly={busy}
              className={inputClass}
            />
          </div>
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {busy ? 'Sending...' : 'Instant Access'}
          </button>
        </form>
      ) : (
        <form onSubmit={verifyCode} className="space-y-4">
          <p className="text-sm text-slate-600">
            We sent a {OTP_LENGTH}-digit code to <strong className="break-all text-slate-900">{email.trim()}</strong>.
            Enter it below to sign in.
          </p>
          <div>
            <label htmlFor={`${id}-code`} className="block text-sm font-medium text-slate-700">
              Verification code
            </label>
            <input
              ref={codeRef}
              id={`${id}-code`}
              name="code"
              type="text"
              required
              maxLength={OTP_LENGTH}
              inputMode="numeric"
              pattern={`\\d{${OTP_LENGTH}}`}
              autoComplete="one-time-code"
              placeholder="123456"
              title={`The ${OTP_LENGTH}-digit code from the e-mail`}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
              readOnly={busy}
              className={`${inputClass} text-center font-mono text-lg tracking-[0.4em]`}
            />
          </div>
          <div className="flex flex-col-reverse gap-3 sm:flex-row">
            <button
              type="button"
              onClick={backToEmail}
              disabled={busy}
              className="w-full rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto sm:shrink-0"
            >
              {backLabel}
            </button>
            <button type="submit" disabled={busy || needsNewCode} className={primaryButtonClass}>
              {busy ? 'Verifying...' : 'Verify Code'}
            </button>
          </div>
          <p className="text-center text-sm text-slate-600">
            {needsNewCode ? '' : 'No code? '}
            <button
              type="button"
              onClick={() => void sendNewCode()}
              disabled={busy || resendIn > 0}
              className="font-semibold text-indigo-700 hover:underline disabled:cursor-not-allowed disabled:text-slate-400 disabled:no-underline"
            >
              Send a new code
            </button>
            {resendIn > 0 && <span aria-live="polite"> (in {resendIn} s)</span>}
          </p>
        </form>
      )}
    </div>
  );
}
