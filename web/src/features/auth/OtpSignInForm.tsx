import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { OTP_LENGTH, OTP_RESEND_COOLDOWN_SECONDS } from '../../../../shared/constants.js';
import { MESSAGES, type CodeStatus } from '../../../../shared/errors.js';
import { api, isApiError } from '../../api';
import { CLIENT_ERROR_CODES } from '../../api/api-error';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { useToast } from '../toast/toast-context';
import { useAuth } from './auth-context';
import { codeDigits } from './code-digits';

interface OtpSignInFormProps {
  /**
   * The label of the button back to the e-mail step, already in the page's language: 'Back' on the
   * landing page (`_('login.form.back')`); 'Back to Email' (`login.form.backToEmail`) when omitted.
   */
  backLabel?: string;
  initialEmail?: string;
  /** Where a successful sign-in goes (a checked same-site path); the dashboard by default. */
  next?: string;
}

type Step = 'email' | 'code';

/** What to do after a refused code, under the 'Invalid code' message. */
function codeHint(status: CodeStatus, _: I18n['_']): string {
  if (status.reason === 'locked') return _('login.hint.locked');
  if (status.reason === 'expired') return _('login.hint.expired');
  return _('login.hint.attemptsLeft', { count: status.attemptsLeft });
}

/**
 * The server's message for a refused request (the server words it in the visitor's language); ours
 * when the request got no answer or no usable one (the client's own English texts in MESSAGES).
 */
function errorText(error: unknown, fallbackId: string, _: I18n['_']): string {
  if (!isApiError(error)) return _(fallbackId);
  if (error.code === CLIENT_ERROR_CODES.network) return _('login.error.serverUnreachable');
  if (error.code === CLIENT_ERROR_CODES.internal && error.message === MESSAGES.unexpected) return _('login.error.unexpected');
  return error.message || _(fallbackId);
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
  const { _ } = useLingui();
  const { locale } = useLocale();
  const format = useFormat();
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
  // A code on its way to the server: the auto-submit, Enter and the button must not send it twice
  // (each refused code costs one of the attempts).
  const verifying = useRef(false);

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
      // The page's language is the e-mail's.
      await api.auth.requestOtp(email.trim(), locale);
      dismissSentToast();
      sentToast.current = toast.info(_('login.toast.codeSent'));
      setCode('');
      startCountdown(OTP_RESEND_COOLDOWN_SECONDS);
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
    if (await requestCode()) goToStep('code');
  }

  async function sendNewCode() {
    if (await requestCode()) codeRef.current?.focus();
  }

  // Locked or expired: no code typed now can be right; only a new one helps.
  const needsNewCode = codeStatus !== null && codeStatus.reason !== 'wrong';

  async function submitCode(candidate: string) {
    if (verifying.current || candidate.length !== OTP_LENGTH) return;
    verifying.current = true;
    setError(null);
    setBusy(true);
    try {
      const { user } = await api.auth.verifyOtp(email.trim(), candidate);
      dismissSentToast();
      setUser(user);
      await navigate(next, { replace: true });
    } catch (err) {
      setError(errorText(err, 'login.error.invalidCode', _));
      const status = isApiError(err) ? err.codeStatus : undefined;
      setCodeStatus(status ?? null);
      if (status) startCountdown(status.resendInSeconds);
      // An empty field to type the code again into (the refused one is not sent twice).
      setCode('');
      setBusy(false);
      codeRef.current?.focus();
    } finally {
      verifying.current = false;
    }
  }

  function verifyCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submitCode(code);
  }

  /** The code goes as soon as all its digits are in: typed, pasted or filled in by the phone. */
  function changeCode(text: string) {
    const digits = codeDigits(text);
    setCode(digits);
    if (digits.length === OTP_LENGTH && !needsNewCode) void submitCode(digits);
  }

  function backToEmail() {
    setError(null);
    setCodeStatus(null);
    setCode('');
    dismissSentToast();
    goToStep('email');
  }

  return (
    <div>
      {error && (
        <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {error}
          {codeStatus && <p className="mt-1 text-red-700">{codeHint(codeStatus, _)}</p>}
        </div>
      )}

      {step === 'email' ? (
        <form onSubmit={sendCode} className="space-y-4">
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
              onChange={(event) => setEmail(event.target.value)}
              readOnly={busy}
              className={inputClass}
            />
          </div>
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {busy ? _('login.form.sending') : _('login.form.sendCode')}
          </button>
        </form>
      ) : (
        <form onSubmit={verifyCode} className="space-y-4">
          <p className="text-sm text-slate-600">
            <Trans
              id="login.form.codeSent"
              values={{ length: format.number(OTP_LENGTH), email: email.trim() }}
              components={{ 0: <strong dir="ltr" className="break-all text-slate-900" /> }}
            />
          </p>
          <div>
            <label htmlFor={`${id}-code`} className="block text-sm font-medium text-slate-700">
              {_('login.form.codeLabel')}
            </label>
            <input
              ref={codeRef}
              id={`${id}-code`}
              name="code"
              type="text"
              required
              inputMode="numeric"
              pattern={`\\d{${OTP_LENGTH}}`}
              autoComplete="one-time-code"
              placeholder="123456"
              title={_('login.form.codeTitle', { length: format.number(OTP_LENGTH) })}
              value={code}
              onChange={(event) => changeCode(event.target.value)}
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
              {backLabel ?? _('login.form.backToEmail')}
            </button>
            <button type="submit" disabled={busy || needsNewCode} className={primaryButtonClass}>
              {busy ? _('login.form.verifying') : _('login.form.verify')}
            </button>
          </div>
          <p className="text-center text-sm text-slate-600">
            {needsNewCode ? '' : `${_('login.form.noCode')} `}
            <button
              type="button"
              onClick={() => void sendNewCode()}
              disabled={busy || resendIn > 0}
              className="font-semibold text-indigo-700 hover:underline disabled:cursor-not-allowed disabled:text-slate-400 disabled:no-underline"
            >
              {_('login.form.sendNewCode')}
            </button>
            {resendIn > 0 && <span aria-live="polite"> {_('login.form.resendIn', { count: resendIn })}</span>}
          </p>
        </form>
      )}
    </div>
  );
}
