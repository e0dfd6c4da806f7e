import { useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import { OTP_LENGTH } from '../../../../shared/constants.js';
import { api } from '../../api';
import { useLocale } from '../../i18n/locale-context';
import { useToast } from '../toast/toast-context';
import { useAuth } from './auth-context';
import { alertClass, errorText, inputClass, primaryButtonClass } from './sign-in-form-parts';

/**
 * For a customer without an e-mail address (they came through the Telegram bot): the address they want, a code sent to
 * it, and the code back; the address is then theirs (sign-in on the web, e-mailed receipts).
 */
export function AddEmailCard() {
  const { _ } = useLingui();
  const { locale } = useLocale();
  const { setUser } = useAuth();
  const toast = useToast();
  const ids = { email: useId(), code: useId() };
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(errorText(err, 'login.error.unexpected', _));
    } finally {
      setBusy(false);
    }
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.requestEmailCode(email.trim(), locale);
      setSentTo(email.trim());
      setCode('');
    });
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setUser(await api.confirmEmail(sentTo!, code.trim()));
      toast.success(_('common.addEmail.done'));
    });
  };

  return (
    <section aria-labelledby={`${ids.email}-title`} className="mt-6 max-w-xl rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 id={`${ids.email}-title`} className="text-lg font-semibold text-slate-900">
        {_('common.addEmail.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{_('common.addEmail.intro')}</p>
      {error && (
        <p role="alert" className={`mt-4 ${alertClass}`}>
          {error}
        </p>
      )}
      {sentTo === null ? (
        <form onSubmit={send} noValidate className="mt-4 space-y-3">
          <label htmlFor={ids.email} className="block text-sm font-medium text-slate-700">
            {_('login.form.emailLabel')}
          </label>
          <input
            id={ids.email}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder={_('login.form.emailPlaceholder')}
            className={inputClass}
          />
          <button type="submit" disabled={busy || email.trim() === ''} className={primaryButtonClass}>
            {busy ? _('login.form.sending') : _('common.addEmail.send')}
          </button>
        </form>
      ) : (
        <form onSubmit={confirm} noValidate className="mt-4 space-y-3">
          <p className="text-sm text-slate-700">{_('common.addEmail.sent', { email: sentTo })}</p>
          <label htmlFor={ids.code} className="block text-sm font-medium text-slate-700">
            {_('login.form.codeLabel')}
          </label>
          <input
            id={ids.code}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
            className={inputClass}
          />
          <button type="submit" disabled={busy || code.length !== OTP_LENGTH} className={primaryButtonClass}>
            {busy ? _('login.form.verifying') : _('common.addEmail.confirm')}
          </button>
          <button type="button" onClick={() => setSentTo(null)} className="w-full text-sm font-medium text-indigo-700 hover:underline">
            {_('common.addEmail.other')}
          </button>
        </form>
      )}
    </section>
  );
}
