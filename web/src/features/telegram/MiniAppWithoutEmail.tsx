import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { alertClass, errorText } from '../auth/sign-in-form-parts';
import { miniAppUnlinked, signUpFromMiniApp } from './telegram-sign-in';

/**
 * In the Mini App, for a Telegram user linked to no customer: beside the e-mail sign-in (which links them), going on
 * with Telegram alone — a customer without an e-mail address, who can add one on the dashboard later.
 */
export function MiniAppWithoutEmail({ next }: { next: string }) {
  const { _ } = useLingui();
  const { setUser } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!miniAppUnlinked()) return null;

  const goOn = async () => {
    setBusy(true);
    setError(null);
    try {
      setUser(await signUpFromMiniApp());
      await navigate(next, { replace: true });
    } catch (err) {
      setError(errorText(err, 'login.error.unexpected', _));
      setBusy(false);
    }
  };

  return (
    <div className="mt-6 border-t border-slate-200 pt-6">
      {error && (
        <p role="alert" className={alertClass}>
          {error}
        </p>
      )}
      <p className="text-sm text-slate-600">{_('login.telegram.noEmailIntro')}</p>
      <button
        type="button"
        onClick={() => void goOn()}
        disabled={busy}
        className="mt-3 w-full rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-slate-800 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {busy ? _('login.payLink.signingIn') : _('login.telegram.noEmail')}
      </button>
    </div>
  );
}
