import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { OTP_LENGTH } from '../../../../shared/constants.js';
import type { CodeStatus } from '../../../../shared/errors.js';
import { api, isApiError } from '../../api';
import { useFormat } from '../../i18n/format';
import { useAuth } from './auth-context';
import { codeDigits } from './code-digits';
import { alertClass, errorText, inputClass, primaryButtonClass } from './sign-in-form-parts';

export interface OtpCodeStepProps {
  /** The address the code was sent to, trimmed. */
  email: string;
  /** The label of the button back to the e-mail step, in the page's language. */
  backLabel: string;
  /** Where a successful sign-in goes. */
  next: string;
  /** Focus the code field once shown (the visitor just moved here, rather than a reload resuming this step). */
  focusOnShow: boolean;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  error: string | null;
  setError: (error: string | null) => void;
  /** When a new code may be asked for (epoch ms), and a way to move it. */
  resendAt: number;
  setResendAt: (epochMs: number) => void;
  /** Asks for a new code (the form's own request, which also restarts the countdown); true once sent. */
  requestCode: () => Promise<boolean>;
  /** Back to the e-mail step. */
  onBack: () => void;
  /** Called once signed in, before going on (the form dismisses its 'code sent' toast). */
  onSignedIn: () => void;
  /** A friend's referral code typed on the e-mail step (counted only for a new customer). */
  referralCode?: string;
}

/** What to do after a refused code, under the 'Invalid code' message. */
function codeHint(status: CodeStatus, _: I18n['_']): string {
  if (status.reason === 'locked') return _('login.hint.locked');
  if (status.reason === 'expired') return _('login.hint.expired');
  return _('login.hint.attemptsLeft', { count: status.attemptsLeft });
}

/**
 * The sign-in form's second step: the 6-digit code sent to the e-mail, sent as soon as all its digits are in, the
 * attempts left after a wrong one, and a new code once the resend countdown has run out. A chunk of its own
 * (OtpSignInForm loads it while the visitor is on the e-mail step), so a page with the form does not download it first.
 */
export default function OtpCodeStep(props: OtpCodeStepProps) {
  const { email, backLabel, next, focusOnShow, busy, setBusy, error, setError, resendAt, setResendAt, requestCode, onBack, onSignedIn, referralCode } = props;
  const { _ } = useLingui();
  const format = useFormat();
  const { setUser } = useAuth();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [codeStatus, setCodeStatus] = useState<CodeStatus | null>(null);
  // The time the countdown last looked.
  const [now, setNow] = useState(Date.now);
  const resendIn = Math.max(0, Math.ceil((resendAt - now) / 1000));
  const id = useId();
  const codeRef = useRef<HTMLInputElement>(null);
  // A code on its way to the server: the auto-submit, Enter and the button must not send it twice
  // (each refused code costs one of the attempts).
  const verifying = useRef(false);

  useEffect(() => {
    if (focusOnShow) codeRef.current?.focus();
  }, [focusOnShow]);

  // The resend countdown: the clock read every second until the deadline passes.
  useEffect(() => {
    setNow(Date.now());
    if (resendAt <= Date.now()) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= resendAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

  // Locked or expired: no code typed now can be right; only a new one helps.
  const needsNewCode = codeStatus !== null && codeStatus.reason !== 'wrong';

  async function submitCode(candidate: string) {
    if (verifying.current || candidate.length !== OTP_LENGTH) return;
    verifying.current = true;
    setError(null);
    setBusy(true);
    try {
      const { user } = await api.auth.verifyOtp(email, candidate, referralCode);
      onSignedIn();
      setUser(user);
      await navigate(next, { replace: true });
    } catch (err) {
      setError(errorText(err, 'login.error.invalidCode', _));
      const status = isApiError(err) ? err.codeStatus : undefined;
      setCodeStatus(status ?? null);
      if (status) setResendAt(Date.now() + status.resendInSeconds * 1000);
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

  async function sendNewCode() {
    setCodeStatus(null);
    if (await requestCode()) {
      setCode('');
      codeRef.current?.focus();
    }
  }

  return (
    <div>
      {error && (
        <div role="alert" className={alertClass}>
          {error}
          {codeStatus && <p className="mt-1 text-red-700">{codeHint(codeStatus, _)}</p>}
        </div>
      )}
      <form onSubmit={verifyCode} className="space-y-4">
        <p className="text-sm text-slate-600">
          <Trans
            id="login.form.codeSent"
            values={{ length: format.number(OTP_LENGTH), email }}
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
            onClick={onBack}
            disabled={busy}
            className="w-full rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto sm:shrink-0"
          >
            {backLabel}
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
    </div>
  );
}
