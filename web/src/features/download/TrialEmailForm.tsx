import { useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import { useHref, useNavigate } from 'react-router-dom';
import { OTP_LENGTH } from '../../../../shared/constants.js';
import { api } from '../../api';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { TRIAL_DASHBOARD_PATH } from '../pricing/trial-request';

/**
 * The signed-out visitor's free-trial box: one click sends the sign-in code and opens /login at its code
 * step, which then goes to the dashboard claiming the trial. Should the code not go (a mistyped address,
 * the resend limit), /login opens at its e-mail step with the address filled in and says why when sent again.
 */
export function TrialEmailForm() {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const navigate = useNavigate();
  const loginHref = useHref('/login');
  const { locale } = useLocale();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);

  async function startTrial(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    const params = new URLSearchParams({ email: address, next: TRIAL_DASHBOARD_PATH });
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
    // Without JavaScript (or before it has loaded) the browser submits the same request: /login?email=…&next=… (/ru/login… in Russian).
    <form action={loginHref} method="get" onSubmit={(event) => void startTrial(event)} className="mx-auto w-full max-w-md text-start">
      <label htmlFor={`${id}-email`} className="block text-sm font-semibold text-indigo-50">
        {_('download.trial.emailLabel')}
      </label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          required
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder={_('download.trial.emailPlaceholder')}
          aria-describedby={`${id}-hint`}
          className="min-w-0 flex-1 rounded-lg border border-white/20 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 focus:ring-indigo-300"
        />
        <button
          type="submit"
          aria-disabled={sending}
          className="rounded-lg bg-indigo-500 px-5 py-2.5 font-semibold whitespace-nowrap text-white shadow hover:bg-indigo-400"
        >
          {_('download.trial.submit')}
        </button>
      </div>
      <p id={`${id}-hint`} className="mt-2 text-sm text-indigo-100">
        {_('download.trial.hint', { length: format.number(OTP_LENGTH) })}
      </p>
      <input type="hidden" name="next" value={TRIAL_DASHBOARD_PATH} />
    </form>
  );
}
