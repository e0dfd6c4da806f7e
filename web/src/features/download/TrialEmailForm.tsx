import { useLingui } from '@lingui/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { OTP_LENGTH } from '../../../../shared/constants.js';
import { api } from '../../api';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { TRIAL_DASHBOARD_PATH } from '../pricing/trial-request';
import { looksLikeEmail, rememberSignInEmail } from '../auth/pending-sign-in';
import { TrialClaim } from '../../components/content/TrialClaim';

/**
 * The signed-out visitor's free-trial box: one click sends the sign-in code and opens /login at its code
 * step, which then goes to the dashboard claiming the trial. Should the code not go (a mistyped address,
 * the resend limit), /login opens at its e-mail step with the address filled in and says why when sent again.
 * The address goes to /login in this tab's storage, never in the URL; the button waits for the page's script.
 */
export function TrialEmailForm() {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const navigate = useNavigate();
  const { locale } = useLocale();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const [ready, setReady] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => setReady(true), []);

  async function startTrial(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    if (!looksLikeEmail(address)) {
      setInvalid(true);
      inputRef.current?.focus();
      return;
    }
    setInvalid(false);
    const params = new URLSearchParams({ next: TRIAL_DASHBOARD_PATH });
    rememberSignInEmail(address);
    setSending(true);
    try {
      await api.auth.requestOtp(address, locale);
      params.set('step', 'code');
    } catch {
      // Left at the e-mail step: sending from there shows the server's reason.
    } finally {
      setSending(false);
    }
    void navigate(`/login?${params}`);
  }

  return (
    <form method="post" noValidate onSubmit={(event) => void startTrial(event)} className="mx-auto w-full max-w-md text-start">
      <label htmlFor={`${id}-email`} className="block text-sm font-semibold text-indigo-50">
        {_('download.trial.emailLabel')}
      </label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <input
          ref={inputRef}
          id={`${id}-email`}
          type="email"
          name="email"
          required
          autoComplete="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (invalid && looksLikeEmail(event.target.value.trim())) setInvalid(false);
          }}
          placeholder={_('download.trial.emailPlaceholder')}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
          className="min-w-0 flex-1 rounded-lg border border-white/20 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-indigo-300"
        />
        <button
          type="submit"
          disabled={!ready}
          aria-disabled={sending}
          className="rounded-lg bg-indigo-500 px-5 py-2.5 font-semibold whitespace-nowrap text-white shadow hover:bg-indigo-400"
        >
          <TrialClaim trial={_('download.trial.submit')} otherwise={_('download.trial.submitNoTrial')} />
        </button>
      </div>
      {invalid && (
        <p id={`${id}-error`} className="mt-2 rounded bg-white px-2 py-1 text-sm font-medium text-red-700">
          {_('form.invalidEmail')}
        </p>
      )}
      <p id={`${id}-hint`} className="mt-2 text-sm text-indigo-100">
        <TrialClaim
          trial={_('download.trial.hint', { length: format.number(OTP_LENGTH) })}
          otherwise={_('download.trial.hintNoTrial', { length: format.number(OTP_LENGTH) })}
        />
      </p>
    </form>
  );
}
